import type { LessonTexts } from "./types";

/** Lezioni in italiano. */
export const lessonsIt: LessonTexts = {
  goal: {
    title: "Prima di tutto, sappi dove stai andando",
    body: [
      "La dama cinese è una gara. Ogni giocatore parte con dieci biglie in una punta della stella e cerca di portarle tutte nella punta direttamente opposta. Non ci sono catture, né dame, né punti da contare: vince chi completa per primo la propria destinazione.",
      "In una partita a due la tua destinazione è la punta da cui parte l'avversario, e la sua è la tua. È contornata in oro. Le biglie possono arrivare in qualsiasi ordine.",
    ],
    task: "Avvicina una biglia bianca qualsiasi alla punta contornata in oro.",
    right: "Quella biglia ora è più vicina alla meta.",
    wrong: "quella mossa non ha avvicinato la biglia alla punta dorata.",
  },
  step: {
    title: "Un passo sposta di una casella",
    body: [
      "Scegli una biglia e spostala in una qualsiasi casella vicina vuota. Le sei caselle che toccano la sua posizione sono le possibili destinazioni di un passo; quelle occupate non sono disponibili.",
      "Un passo è breve e definitivo. Appena la biglia entra nella casella vicina, il tuo turno finisce. Non puoi aggiungere un salto dopo.",
    ],
    task: "Sposta di un passo la biglia bianca in i9.",
    right: "Un passo: una casella, e il turno è finito.",
    wrong: "non era un passo della biglia in i9 (un salto scavalca una biglia).",
  },
  jump: {
    title: "Un salto scavalca una biglia adiacente",
    body: [
      "Osserva tre caselle su una stessa linea retta: la tua casella di partenza, una casella vicina occupata e la casella vuota subito dopo. Quella terza casella vuota è un atterraggio valido.",
      "Puoi scavalcare una tua biglia o una dell'avversario. Non si cattura nulla e la biglia scavalcata resta dov'è.",
    ],
    task: "Fai un salto con una biglia bianca.",
    right: "Un salto: sopra una biglia, nella casella vuota dietro di essa.",
    wrong: "quello era un passo, non un salto.",
  },
  chain: {
    title: "Atterra, guarda di nuovo e prosegui",
    body: [
      "Dopo ogni atterraggio, rileggi il tavoliere dalla nuova posizione della biglia. Se un'altra biglia adiacente ha una casella vuota dietro di sé, la stessa biglia può saltare di nuovo. Il percorso può cambiare direzione a ogni atterraggio.",
      "Nella mossa 21 di una partita reale il nero ha scavalcato biglie di entrambi i colori in quattro salti consecutivi. Puoi fermarti dopo qualsiasi atterraggio, ma non puoi passare a un'altra biglia a metà della catena.",
    ],
    task: "Porta la biglia in i7 il più lontano possibile: quattro salti, fino a i13.",
    right: "Quattro salti in una mossa: i7-i9-g11-i11-i13.",
    wrong: "la catena può andare più lontano. Passa sulle caselle segnate per vedere ogni percorso.",
  },
  setups: {
    title: "In due, tre, quattro o sei",
    body: [
      "In due si usano punte opposte, così ogni colore parte dentro la destinazione dell'altro. In tre si usano punte alterne e ogni destinazione parte vuota. In quattro si usano due coppie di punte opposte e due punte restano vuote. In sei si riempie la stella.",
      "Il formato a cinque non è standard: un giocatore si troverebbe di fronte l'unica punta vuota e la gara non sarebbe equa. Il bianco muove sempre per primo, poi si gira in senso orario.",
    ],
    task: "Scegli il numero di giocatori, guarda la stella, poi fai la prima mossa del bianco.",
    right: "Il bianco apre ogni partita; gli altri seguono in senso orario.",
    wrong: "qui andava bene qualsiasi mossa del bianco.",
  },
  tenth: {
    title: "La decima biglia vince",
    body: [
      "La partita è vinta non appena un giocatore ha tutte e dieci le biglie dentro la punta opposta. Non importa quale biglia occupi quale casella.",
      "Qui nove biglie bianche sono già arrivate. In una partita a più giocatori gli altri continuerebbero per i piazzamenti successivi, e le biglie del vincitore restano sul tavoliere.",
    ],
    task: "Riempi l'ultima casella libera della meta.",
    right: "Tutte e dieci sono arrivate: il bianco ha finito.",
    wrong: "la meta ha ancora una casella vuota. Porta dentro la decima biglia.",
  },
  directions: {
    title: "Puoi muoverti in tutte e sei le direzioni",
    body: [
      "Nelle regole non esiste il concetto di «avanti». Un passo o un salto può avvicinarti alla destinazione, allontanartene o andare di lato. Le mosse all'indietro sono spesso utili perché preparano una catena migliore per il turno successivo.",
    ],
    task: "Fai con la biglia in i9 una mossa di lato o all'indietro.",
    right: "Indietro e di lato sono mosse valide, e a volte le migliori.",
    wrong: "quella mossa andava in avanti. Provane una che non lo faccia.",
  },
  colours: {
    title: "Puoi scavalcare biglie di entrambi i colori, ma non catturarle",
    body: [
      "Sia le tue biglie sia quelle degli avversari sono ponti validi. La biglia scavalcata non viene mai tolta: nella dama cinese non ci sono catture, né dame, né promozioni.",
    ],
    task: "Scavalca la biglia nera.",
    right: "La biglia nera è ancora lì: saltare non cattura mai.",
    wrong: "quella mossa non ha scavalcato la biglia nera.",
  },
  optional: {
    title: "I salti sono facoltativi, e anche finire la catena",
    body: [
      "Non sei obbligato a saltare solo perché un salto è disponibile, né a completare la catena più lunga. Puoi fermarti dopo qualsiasi atterraggio.",
      "Un turno usa una sola biglia e un solo tipo di mossa: non può iniziare con un passo e proseguire con un salto, e una catena non passa a un'altra biglia.",
    ],
    task: "Salta con la biglia in i7 e fermati dopo il primo salto.",
    right: "Ti sei fermato al primo atterraggio: è consentito.",
    wrong: "fermati al primo atterraggio, i9.",
  },
};
