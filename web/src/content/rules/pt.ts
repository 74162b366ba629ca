import type { RulesDoc } from "./types";

/** As regras em português. */
export const rulesPt: RulesDoc = {
  title: "Damas chinesas — as regras",
  sections: [
    { heading: "Noções básicas", paras: [
      "As damas chinesas (Stern-Halma) são jogadas numa estrela de 121 casas: um hexágono de 61 no meio e seis pontas triangulares de 10. Cada jogador tem a sua ponta, onde começam as suas 10 bolas. Joga-se a dois, três, quatro ou seis.",
    ] },
    { heading: "O objetivo", paras: [
      "Levar todas as suas bolas para a ponta oposta. Não há capturas: as bolas só dão passos e saltam umas sobre as outras. Quem chega primeiro fica em primeiro lugar; os demais continuam jogando pelos lugares seguintes.",
    ] },
    { heading: "Disposição", paras: [
      "• A dois — pontas frente a frente (brancas e pretas).",
      "• A três — pontas alternadas (brancas, azuis, amarelas); os destinos são as pontas vazias opostas.",
      "• A quatro — dois pares de pontas opostas (brancas, vermelhas, pretas, amarelas); duas pontas ficam vazias.",
      "• A seis — todas as pontas estão ocupadas.",
      "Joga-se no sentido horário, começando pelas brancas. As cores no sentido horário a partir de baixo: brancas, vermelhas, azuis, pretas, amarelas, verdes.",
    ] },
    { heading: "As jogadas", paras: [
      "Uma jogada é um passo ou uma cadeia de saltos de uma única bola, nunca os dois.",
      "• Passo — para uma das seis casas vizinhas vazias.",
      "• Salto — sobre uma bola vizinha de qualquer cor para a casa vazia logo atrás dela. Os saltos podem ser encadeados e é possível parar depois de qualquer um. Uma cadeia nunca pousa duas vezes na mesma casa, incluindo a de partida. Saltar não é obrigatório.",
      "• Uma jogada só pode terminar no hexágono central, na sua própria ponta ou no destino. As outras pontas podem ser atravessadas numa cadeia de saltos, mas nunca servem de fim de jogada.",
      "• Uma bola que entrou no destino só se move dentro dele.",
    ] },
    { heading: "Chegada e lugares", paras: [
      "Um jogador chegou quando todas as suas bolas estão no destino. Depois do seu prazo para sair de casa, basta também que todas as casas do destino estejam ocupadas e pelo menos uma bola ali seja dele: uma bola alheia no seu destino não impede você de terminar.",
      "A vez de quem chegou é pulada; as suas bolas ficam no tabuleiro.",
    ] },
    { heading: "Notação", paras: [
      "As casas são nomeadas por uma letra e um número: as fileiras 1–17 de baixo para cima e as linhas oblíquas a–q da esquerda para a direita. A casa mais baixa é m1, a mais alta e17, o centro i9. Uma jogada é escrita como o caminho da bola com hífens: l2-l3 é um passo, m1-m3-k5 uma cadeia de dois saltos.",
    ] },
    { heading: "Jogar na mesa", paras: [
      "Clique numa bola sua: ficam destacadas as casas para onde ela pode ir — as vizinhas para um passo e o fim de cada cadeia de saltos. Em cinza ficam as outras pontas, onde não se pode parar. Passe o cursor sobre uma casa para ver o caminho e clique. Pelo teclado, as setas escolhem a casa, Enter pega a bola ou joga, Esc a solta, e Tab alcança as bolas que podem mover e depois as casas marcadas. Cada um vê a estrela com a sua ponta embaixo; o destino fica contornado em dourado.",
    ] },
    { heading: "Prazo para sair de casa", paras: [
      "Todas as bolas devem sair da ponta até ao fim da 30.ª jogada do seu dono (40.ª com 15 bolas). Uma bola presa pelas dos outros não descumpre o prazo. Quem não consegue é eliminado: a dois é derrota; a três ou mais fica com o pior lugar livre e as suas bolas saem do tabuleiro.",
      "Depois do prazo, uma jogada que termina na própria ponta é válida mas elimina: a mesa pede confirmação antes.",
    ] },
    { heading: "A dois: a última jogada do segundo", paras: [
      "Se as brancas chegam, as pretas ainda fazem a sua jogada da rodada; se também chegarem, é empate.",
    ] },
    { heading: "Limite e repetição", paras: [
      "Uma partida dura no máximo 150 rodadas. No limite, com uma posição repetida três vezes ou quando ninguém pode jogar, a partida termina: quem não chegou é ordenado pelas bolas no destino e, em caso de igualdade, por quem está mais perto. Se só um jogador não pode jogar, a vez dele é pulada.",
    ] },
    { heading: "Tempo, desistência", paras: [
      "O relógio é uma reserva de tempo para a partida mais um acréscimo por jogada. A dois, o tempo esgotado é derrota. Numa mesa de três ou mais, uma desistência ou queda de bandeira encerra a partida para todos: quem desistiu fica em último, quem chegou mantém o lugar, os demais são ordenados pelas bolas no destino.",
    ] },
    { heading: "Rating", paras: [
      "A dois — Elo por partida, o empate vale meio ponto. A 3–6 — por lugares, contra cada adversário separadamente. As duplas têm uma escala própria, pelo lugar da dupla.",
    ] },
    { heading: "Variantes", paras: [
      "• Clássico a 2, 3, 4 e 6 — o jogo descrito acima.",
      "• Saltos longos — salta uma fila contínua de bolas que começa ao lado da sua e pousa na primeira casa vazia depois dela.",
      "• 15 bolas (a 2 e a 3) — a casa é a ponta mais as cinco casas do hexágono do lado em frente; o prazo é de 40 jogadas.",
      "• Duplas 2×2 e três duplas — os parceiros ficam em pontas opostas; uma dupla chegou quando os dois chegaram.",
      "• Masters (troca) — ao pousar no seu destino sobre uma bola alheia, ela vai para a casa de onde você veio; a troca termina a jogada.",
      "• Saltos simétricos — salta uma única bola a qualquer distância numa linha, pousando à mesma distância do outro lado, com todas as casas entre elas vazias.",
    ] },
  ],
};
