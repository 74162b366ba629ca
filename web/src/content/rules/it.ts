import type { RulesDoc } from "./types";

/** Le regole per i giocatori, in italiano. */
export const rulesIt: RulesDoc = {
  title: "Come si gioca a dama cinese",
  sections: [
    {
      id: "game",
      heading: "Il gioco",
      paras: [
        "La dama cinese, detta anche Stern-Halma, è una corsa attraverso una stella a sei punte. Ogni giocatore parte con 10 biglie in una punta della stella e cerca di portarle tutte nella punta esattamente di fronte. Non si cattura mai nulla: le biglie fanno un passo verso una buca vicina o saltano sopra altre biglie, e una buona catena di salti è il modo più rapido per attraversare.",
        "Si gioca in due, tre, quattro o sei. Chi porta per primo dall'altra parte tutte le sue biglie prende il primo posto; gli altri continuano per i posti che restano.",
      ],
      figures: [
        { diagram: "start", caption: "Due giocatori alla partenza. Il bianco parte dal basso e punta alla punta in alto, contornata d'oro; il nero corre nel verso opposto." },
      ],
    },
    {
      id: "board",
      heading: "La scacchiera",
      paras: [
        "La stella ha 121 buche: un esagono di 61 al centro e sei punte triangolari da 10. La punta da cui partono le tue biglie è la tua casa; la punta di fronte è il tuo traguardo.",
        "Ogni buca ha un nome, che la lista delle mosse usa: una lettera per la linea obliqua (da a a q, da sinistra a destra) e un numero per la riga (da 1 a 17, dal basso verso l'alto). La punta in basso è m1, quella in alto e17 e il centro i9. Una mossa si scrive con le buche che la biglia visita: l2-l3 è un passo, m1-m3-k5 una catena di due salti.",
      ],
      figures: [{ diagram: "board", caption: "Le sei punte nei colori dei loro posti attorno all'esagono, con il nome di alcune buche." }],
    },
    {
      id: "seats",
      heading: "Posti e turni",
      paras: [
        "• In due si siede in punte opposte: bianco e nero.",
        "• In tre si prende una punta sì e una no: bianco, blu e giallo. Ognuno punta a una punta vuota.",
        "• In quattro si usano due coppie di punte opposte: bianco, rosso, nero e giallo.",
        "• In sei si occupano tutte le punte: bianco, rosso, blu, nero, giallo e verde.",
        "Il bianco muove sempre per primo; poi il turno gira in senso orario attorno alla stella. Sul tuo schermo la stella è ruotata in modo che la tua casa sia in basso.",
      ],
      figures: [{ diagram: "seats", caption: "Tre giocatori: bianco, blu e giallo puntano ciascuno alla punta vuota di fronte (contornata)." }],
    },
    {
      id: "moves",
      heading: "Passi e salti",
      paras: [
        "Al tuo turno muovi una delle tue biglie in uno di due modi, mai entrambi nello stesso turno:",
        "• un passo, verso una delle sei buche accanto, se è libera;",
        "• un salto, sopra una biglia subito accanto (di qualsiasi colore, anche tua) fino alla buca libera appena dietro di essa, in linea retta. La biglia scavalcata resta dov'è.",
        "Saltare non è mai obbligatorio, nemmeno quando un salto è possibile.",
      ],
      figures: [
        { diagram: "step", caption: "Un passo: la biglia in i9 può andare in una qualsiasi delle sei buche vicine che sia libera." },
        { diagram: "jump", caption: "Un salto: la biglia bianca in i7 salta la biglia nera in i8 e atterra in i9." },
      ],
    },
    {
      id: "chains",
      heading: "Catene di salti",
      paras: [
        "Dopo un salto la stessa biglia può saltare ancora, e ancora, finché c'è un salto da fare; puoi fermarti dopo uno qualsiasi. Una lunga catena può portare una biglia attraverso mezza scacchiera in una sola mossa.",
        "Una catena non atterra mai due volte sulla stessa buca e non può tornare alla buca da cui è partita.",
      ],
      figures: [
        { diagram: "chain", caption: "La catena i5-i7-g9-g11. La biglia poteva anche fermarsi in i7 o in g9 (i cerchi verdi)." },
      ],
    },
    {
      id: "foreign",
      heading: "Le punte degli altri",
      paras: [
        "Una punta che non è né la tua casa né il tuo traguardo è per te una punta straniera. Una catena di salti può attraversarla, ma la tua mossa non può finire lì: ogni mossa finisce nell'esagono, nella tua casa o nel tuo traguardo.",
        "Così nessuno può parcheggiare biglie sulla strada di un terzo giocatore.",
      ],
      figures: [
        { diagram: "foreign", caption: "La catena h7-f7-f9 attraversa la punta del rosso e finisce nell'esagono. Fermarsi in f7, dentro la punta del rosso, non è permesso." },
      ],
    },
    {
      id: "goal",
      heading: "Il tuo traguardo",
      paras: [
        "Quando una tua biglia è entrata nel traguardo ci resta: può ancora muovere, ma solo da una buca all'altra dentro il traguardo. Una catena che attraversa soltanto il traguardo e finisce fuori non vi è entrata.",
      ],
      figures: [
        { diagram: "goal", caption: "Nel traguardo del bianco, la biglia in f15 può fare un passo in f16, ma la biglia in g14 non può saltare fuori in g12." },
      ],
    },
    {
      id: "deadline",
      heading: "Termine per uscire di casa",
      paras: [
        "Tutte le tue biglie devono essere fuori di casa alla fine della tua 30ª mossa (la 40ª con 15 biglie). Se una è ancora in casa a quel punto, sei eliminato: in due perdi la partita; in più di due prendi l'ultimo posto ancora libero e le tue biglie vengono tolte dalla scacchiera.",
        "Una biglia che non può uscire perché altre biglie la chiudono dentro è giustificata. Potrà uscire più tardi, appena si apre un varco, e intanto può spostarsi dentro la tua casa.",
        "Dopo il termine, riportare in casa una biglia che ne era uscita ti elimina anch'esso. Il tavolo ti chiede conferma prima di eseguire una mossa del genere.",
      ],
      figures: [
        { diagram: "walled", caption: "Alla 30ª mossa del bianco la biglia in m1 è chiusa dentro da biglie nere: è giustificata." },
        { diagram: "afterDeadline", caption: "Più tardi la biglia giustificata può fare un passo da m1 a m2 dentro casa, ma riportare la biglia in j5 in j4 eliminerebbe il bianco." },
      ],
    },
    {
      id: "arrival",
      heading: "L'arrivo",
      paras: [
        "Sei arrivato quando tutte le tue biglie sono nel traguardo. Chi arriva per primo prende il primo posto; da allora i tuoi turni vengono saltati e le tue biglie restano sulla scacchiera, dove gli altri possono ancora saltarle.",
        "A volte un avversario lascia una biglia nel tuo traguardo, che è la sua casa. Dopo le tue prime 30 mosse basta che tutte le buche del traguardo siano piene e che almeno una delle biglie lì sia tua: la biglia rimasta indietro non ti impedisce di finire.",
      ],
      figures: [
        { diagram: "arrival", caption: "Il traguardo del bianco è pieno: nove biglie bianche e una nera che non è mai uscita. Il bianco è arrivato." },
      ],
    },
    {
      id: "end",
      heading: "La fine della partita",
      paras: [
        "In due, il bianco ha mosso per primo, quindi il nero fa sempre la sua mossa dello stesso giro. Se con quella mossa arriva anche il nero, la partita è patta.",
        "In tre o più, gli altri continuano per i posti rimasti finché resta un solo giocatore, che prende l'ultimo posto.",
        "La partita finisce anche dopo 150 giri, quando la stessa posizione si presenta per la terza volta con lo stesso giocatore al tratto, o quando nessuno può muovere. Chi non è arrivato viene allora classificato per il numero di biglie nel traguardo e, a parità, per quanto le sue biglie ne sono vicine.",
        "Se sei solo tu a non poter muovere, salti il turno e la partita continua.",
      ],
    },
    {
      id: "clock",
      heading: "Orologio e abbandono",
      paras: [
        "Un tavolo può giocare con l'orologio: una riserva di tempo per tutta la partita più qualche secondo aggiunto dopo ogni tua mossa. Il tuo orologio corre solo quando tocca a te.",
        "In due, finire il tempo o abbandonare fa perdere la partita. A un tavolo da tre o più, l'una o l'altra cosa chiude la partita per tutti: chi ha abbandonato o finito il tempo è ultimo, chi è arrivato tiene il suo posto e gli altri si classificano per le biglie nel traguardo.",
        "Può abbandonare solo chi è ancora in corsa: una volta arrivato, il tuo posto è tuo.",
      ],
    },
    {
      id: "ratings",
      heading: "Punteggio",
      paras: [
        "Le partite ai tavoli valutati cambiano il tuo punteggio. Tutti partono da 1500, con punteggi separati per le partite in due, per quelle da tre a sei giocatori e per quelle a squadre.",
        "In due, battere un avversario più forte fa guadagnare di più che battere uno più debole, e perdere contro uno più debole costa di più (il sistema Elo). Con più giocatori il tuo posto viene confrontato con quello di ciascun avversario, come se avessi giocato con ognuno da solo; le variazioni sono scalate in modo che una partita conti più o meno quanto una partita in due. I compagni di squadra non vengono mai valutati l'uno contro l'altro.",
      ],
    },
    {
      id: "variants",
      heading: "Varianti",
      paras: [
        "• Classica: il gioco descritto sopra, in 2, 3, 4 o 6.",
        "• Salti lunghi: una biglia può saltare un'intera fila continua di biglie accanto a sé, atterrando nella prima buca dopo la fila, che deve essere libera.",
        "• Salti simmetrici: una biglia può saltare una sola biglia più lontana lungo una linea, con soltanto buche libere da entrambi i lati, e atterra oltre quella biglia alla stessa distanza da cui era partita.",
        "• 15 biglie: ogni casa e ogni traguardo è un triangolo più grande di 15 buche, e il termine è di 40 mosse.",
        "• Coppie: due o tre squadre di due compagni seduti uno di fronte all'altro, così ognuno va nella casa dell'altro. Una squadra ha finito quando sono arrivati entrambi i compagni.",
        "• Masters: una biglia può finire la mossa su una buca del suo traguardo occupata da una biglia avversaria; quella biglia va nella buca da cui è venuta la biglia che muove.",
      ],
      figures: [
        { diagram: "long", caption: "Salti lunghi: la biglia in i5 salta la fila di tre biglie in i6, i7 e i8 e atterra in i9." },
        { diagram: "symmetric", caption: "Salti simmetrici: la biglia nera in i8 è a tre buche da i5, quindi la biglia bianca atterra tre buche oltre, in i11." },
        { diagram: "fifteen", caption: "Con 15 biglie ogni casa entra di una riga nell'esagono." },
        { diagram: "masters", caption: "Masters: la biglia bianca in h12 salta in h14, nel suo traguardo; la biglia nera che era lì va in h12." },
      ],
    },
  ],
};
