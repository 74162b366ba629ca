import type { RulesDoc } from "./types";

/** Le regole in italiano. */
export const rulesIt: RulesDoc = {
  title: "Dama cinese — le regole",
  sections: [
    { heading: "Fondamenti", paras: [
      "La dama cinese (Stern-Halma) si gioca su una stella di 121 caselle: un esagono di 61 al centro e sei punte triangolari da 10. Ogni giocatore ha la sua punta, dove partono le sue 10 biglie. Si gioca in due, tre, quattro o sei.",
    ] },
    { heading: "Lo scopo", paras: [
      "Portare tutte le proprie biglie nella punta opposta. Non ci sono prese: le biglie fanno solo passi e saltano le une sopra le altre. Chi arriva per primo prende il primo posto; gli altri continuano a giocare per i posti successivi.",
    ] },
    { heading: "Disposizione", paras: [
      "• In due — punte una di fronte all'altra (bianchi e neri).",
      "• In tre — a punte alterne (bianchi, blu, gialli); i traguardi sono le punte vuote opposte.",
      "• In quattro — due coppie di punte opposte (bianchi, rossi, neri, gialli); due punte restano vuote.",
      "• In sei — tutte le punte sono occupate.",
      "Si muove in senso orario, per primo il posto dei bianchi. I colori dei posti, in senso orario dal basso: bianchi, rossi, blu, neri, gialli, verdi.",
    ] },
    { heading: "Le mosse", paras: [
      "Una mossa è un passo o una catena di salti di una sola biglia, mai entrambi.",
      "• Passo — su una delle sei caselle vicine libere.",
      "• Salto — sopra una biglia vicina di qualsiasi colore fino alla casella libera subito dietro. I salti si concatenano e ci si può fermare dopo uno qualsiasi. Una catena non atterra mai due volte sulla stessa casella, compresa quella di partenza. Saltare non è obbligatorio.",
      "• Una mossa può terminare solo nell'esagono centrale, nella propria punta o nel traguardo. Le altre punte si possono attraversare durante una catena di salti, ma non vi si può terminare la mossa.",
      "• Una biglia entrata nel traguardo si muove poi solo al suo interno.",
    ] },
    { heading: "Arrivo e piazzamenti", paras: [
      "Un giocatore è arrivato quando tutte le sue biglie sono nel traguardo. Dopo il suo termine per uscire di casa basta anche che tutte le caselle del traguardo siano occupate e che almeno una biglia sia sua: una biglia altrui rimasta nel tuo traguardo non ti impedisce di finire.",
      "I turni di chi è arrivato vengono saltati; le sue biglie restano sulla scacchiera.",
    ] },
    { heading: "Notazione", paras: [
      "Le caselle si indicano con una lettera e un numero: le righe 1–17 dal basso verso l'alto e le linee oblique a–q da sinistra a destra. La casella più bassa è m1, la più alta e17, il centro i9. Una mossa si scrive come il percorso della biglia con i trattini: l2-l3 è un passo, m1-m3-k5 una catena di due salti.",
    ] },
    { heading: "Muovere al tavolo", paras: [
      "Fai clic su una tua biglia: si evidenziano le caselle dove può andare, quelle vicine per un passo e la fine di ogni catena di salti. In grigio sono segnate le altre punte, dove non ci si può fermare. Passa il puntatore su una casella per vedere il percorso, poi fai clic. Da tastiera, le frecce scelgono la casella, Invio prende la biglia o muove, Esc la rimette giù, e Tab raggiunge le biglie che possono muovere e poi le caselle segnate. Ognuno vede la stella con la propria punta in basso; il traguardo è contornato in oro.",
    ] },
    { heading: "Termine per uscire di casa", paras: [
      "Tutte le biglie devono lasciare la propria punta entro la 30ª mossa del giocatore (40ª con 15 biglie). Una biglia bloccata da quelle altrui non viola il termine. Chi non ce la fa viene eliminato: in due è una sconfitta, in tre o più prende il peggiore dei posti liberi e le sue biglie vengono tolte.",
      "Dopo la scadenza, una mossa che termina nella propria punta è valida ma elimina: il tavolo chiede conferma prima di eseguirla.",
    ] },
    { heading: "In due: l'ultima mossa del secondo", paras: [
      "Se il bianco arriva, il nero fa ancora la sua mossa del giro; se arriva anche lui, è patta.",
    ] },
    { heading: "Limite e ripetizione", paras: [
      "Una partita dura al massimo 150 giri. Al limite, con una posizione ripetuta tre volte o quando nessuno può muovere, la partita finisce: chi non è arrivato si classifica per biglie nel traguardo e, a parità, per vicinanza al traguardo. Se è un solo giocatore a non poter muovere, il suo turno viene saltato.",
    ] },
    { heading: "Tempo, abbandono", paras: [
      "L'orologio è una riserva di tempo per la partita più un incremento a ogni mossa. In due, finire il tempo è una sconfitta. A un tavolo da tre o più, un abbandono o una caduta della bandierina chiude la partita per tutti: chi abbandona è ultimo, chi è arrivato tiene il suo posto, gli altri si classificano per biglie nel traguardo.",
    ] },
    { heading: "Rating", paras: [
      "In due — Elo per partita, la patta vale mezzo punto. In 3–6 — per posizioni: ti confronti con ogni avversario in base al posto. Le squadre hanno una classifica a parte, per il posto della squadra.",
    ] },
    { heading: "Varianti", paras: [
      "• Classica in 2, 3, 4 e 6 — il gioco descritto sopra.",
      "• Salti lunghi — si salta una fila continua di biglie che parte accanto alla propria e si atterra nella prima casella libera oltre la fila.",
      "• 15 biglie (in 2 e 3) — la casa è la punta più le cinque caselle dell'esagono sul lato di fronte; il termine è di 40 mosse.",
      "• Coppie 2×2 e tre coppie — i compagni stanno in punte opposte; una squadra è arrivata quando lo sono entrambi.",
      "• Masters (scambio) — atterrando nel traguardo su una biglia altrui la si sposta nella casella da cui si è partiti; lo scambio chiude la mossa.",
      "• Salti simmetrici — si salta una sola biglia a qualsiasi distanza lungo una linea, atterrando alla stessa distanza oltre, con tutte le caselle intermedie libere.",
    ] },
  ],
};
