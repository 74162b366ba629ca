import type { RulesDoc } from "./types";

/** As regras para os jogadores, em português. */
export const rulesPt: RulesDoc = {
  title: "Como se joga damas chinesas",
  sections: [
    {
      id: "game",
      heading: "O jogo",
      paras: [
        "As damas chinesas, também chamadas Stern-Halma, são uma corrida através de uma estrela de seis pontas. Cada jogador começa com 10 bolas numa ponta da estrela e tenta levá-las todas para a ponta mesmo em frente. Nunca se captura nada: as bolas dão um passo para um buraco vizinho ou saltam por cima de outras bolas, e uma boa cadeia de saltos é a maneira mais rápida de atravessar.",
        "Jogam duas, três, quatro ou seis pessoas. Quem primeiro leva todas as suas bolas para o outro lado fica em primeiro lugar; os outros continuam a jogar pelos lugares que restam.",
      ],
      figures: [
        { diagram: "start", caption: "Dois jogadores no início. As brancas partem de baixo e vão para a ponta de cima, contornada a dourado; as pretas correm no sentido contrário." },
      ],
    },
    {
      id: "board",
      heading: "O tabuleiro",
      paras: [
        "A estrela tem 121 buracos: um hexágono de 61 no meio e seis pontas triangulares de 10. A ponta onde começam as tuas bolas é a tua casa; a ponta em frente é o teu destino.",
        "Cada buraco tem um nome, que a lista de jogadas usa: uma letra para a linha oblíqua (de a a q, da esquerda para a direita) e um número para a fila (de 1 a 17, de baixo para cima). A ponta de baixo é m1, a de cima e17 e o centro i9. Uma jogada escreve-se com os buracos por onde a bola passa: l2-l3 é um passo, m1-m3-k5 uma cadeia de dois saltos.",
      ],
      figures: [{ diagram: "board", caption: "As seis pontas nas cores dos seus lugares à volta do hexágono, com o nome de alguns buracos." }],
    },
    {
      id: "seats",
      heading: "Lugares e vez de jogar",
      paras: [
        "• Dois jogadores sentam-se em pontas opostas: brancas e pretas.",
        "• Três jogadores ocupam pontas alternadas: brancas, azuis e amarelas. Cada um vai para uma ponta vazia.",
        "• Quatro jogadores usam dois pares de pontas opostas: brancas, vermelhas, pretas e amarelas.",
        "• Seis jogadores ocupam todas as pontas: brancas, vermelhas, azuis, pretas, amarelas e verdes.",
        "As brancas jogam sempre primeiro; depois a vez passa no sentido dos ponteiros do relógio à volta da estrela. No teu ecrã a estrela está rodada de modo que a tua casa fique em baixo.",
      ],
      figures: [{ diagram: "seats", caption: "Três jogadores: brancas, azuis e amarelas vão cada uma para a ponta vazia em frente (contornada)." }],
    },
    {
      id: "moves",
      heading: "Passos e saltos",
      paras: [
        "Na tua vez moves uma das tuas bolas de uma de duas maneiras, nunca as duas na mesma vez:",
        "• um passo, para um dos seis buracos ao lado, se estiver vazio;",
        "• um salto, por cima de uma bola mesmo ao lado (de qualquer cor, também tua) para o buraco vazio logo atrás dela, em linha reta. A bola saltada fica onde está.",
        "Saltar nunca é obrigatório, mesmo quando há um salto possível.",
      ],
      figures: [
        { diagram: "step", caption: "Um passo: a bola em i9 pode ir para qualquer um dos seis buracos vizinhos que esteja vazio." },
        { diagram: "jump", caption: "Um salto: a bola branca em i7 salta por cima da bola preta em i8 e cai em i9." },
      ],
    },
    {
      id: "chains",
      heading: "Cadeias de saltos",
      paras: [
        "Depois de um salto, a mesma bola pode saltar outra vez, e outra, enquanto houver um salto para fazer; podes parar depois de qualquer um deles. Uma cadeia longa pode levar uma bola através de meio tabuleiro numa só jogada.",
        "Uma cadeia nunca cai duas vezes no mesmo buraco e não pode voltar ao buraco de onde partiu.",
      ],
      figures: [
        { diagram: "chain", caption: "A cadeia i5-i7-g9-g11. A bola também podia ter parado em i7 ou em g9 (os círculos verdes)." },
      ],
    },
    {
      id: "foreign",
      heading: "As pontas dos outros",
      paras: [
        "Uma ponta que não é nem a tua casa nem o teu destino é, para ti, uma ponta alheia. Uma cadeia de saltos pode atravessá-la, mas a tua jogada não pode acabar lá: cada jogada acaba no hexágono, na tua casa ou no teu destino.",
        "Assim ninguém pode estacionar bolas no caminho de um terceiro jogador.",
      ],
      figures: [
        { diagram: "foreign", caption: "A cadeia h7-f7-f9 atravessa a ponta das vermelhas e acaba no hexágono. Parar em f7, dentro da ponta das vermelhas, não é permitido." },
      ],
    },
    {
      id: "goal",
      heading: "O teu destino",
      paras: [
        "Quando uma das tuas bolas entra no teu destino, fica lá: ainda pode mover-se, mas só de buraco em buraco dentro do destino. Uma cadeia que apenas passa pelo destino e acaba fora dele não entrou nele.",
      ],
      figures: [
        { diagram: "goal", caption: "No destino das brancas, a bola em f15 pode dar um passo para f16, mas a bola em g14 não pode saltar para fora, para g12." },
      ],
    },
    {
      id: "deadline",
      heading: "Prazo para sair de casa",
      paras: [
        "Todas as tuas bolas têm de estar fora de casa no fim da tua 30.ª jogada (a 40.ª com 15 bolas). Se alguma ainda estiver em casa nesse momento, és eliminado: a dois perdes a partida; com mais jogadores ficas com o último lugar ainda livre e as tuas bolas são retiradas do tabuleiro.",
        "Uma bola que não consegue sair porque outras bolas a fecham lá dentro fica desculpada. Pode sair mais tarde, assim que se abrir uma passagem, e até lá pode mover-se dentro da tua casa.",
        "Depois do prazo, trazer de volta para casa uma bola que já tinha saído também te elimina. A mesa pede-te confirmação antes de fazer uma jogada dessas.",
      ],
      figures: [
        { diagram: "walled", caption: "Na 30.ª jogada das brancas, a bola em m1 está fechada por bolas pretas: fica desculpada." },
        { diagram: "afterDeadline", caption: "Mais tarde a bola desculpada pode dar um passo de m1 para m2 dentro de casa, mas levar a bola de j5 de volta a j4 eliminaria as brancas." },
      ],
    },
    {
      id: "arrival",
      heading: "A chegada",
      paras: [
        "Chegaste quando todas as tuas bolas estão no teu destino. Quem chega primeiro fica em primeiro lugar; a partir daí a tua vez é saltada e as tuas bolas ficam no tabuleiro, onde os outros ainda podem saltar por cima delas.",
        "Às vezes um adversário deixa uma bola no teu destino, que é a casa dele. Depois das tuas primeiras 30 jogadas basta que todos os buracos do teu destino estejam ocupados e que pelo menos uma das bolas lá seja tua: a bola que ficou para trás não te impede de terminar.",
      ],
      figures: [
        { diagram: "arrival", caption: "O destino das brancas está cheio: nove bolas brancas e uma preta que nunca saiu. As brancas chegaram." },
      ],
    },
    {
      id: "end",
      heading: "O fim da partida",
      paras: [
        "A dois, as brancas jogaram primeiro, por isso as pretas fazem sempre a sua jogada da mesma volta. Se as pretas também chegarem com essa jogada, a partida é empate.",
        "Com três ou mais, os outros continuam pelos lugares que restam até sobrar um só jogador, que fica com o último lugar.",
        "A partida também acaba ao fim de 150 voltas, quando a mesma posição aparece pela terceira vez com o mesmo jogador a jogar, ou quando ninguém se pode mover. Quem não chegou é então ordenado pelo número de bolas no destino e, em caso de igualdade, pela proximidade das suas bolas ao destino.",
        "Se só tu não te podes mover, perdes a vez e a partida continua.",
      ],
    },
    {
      id: "clock",
      heading: "Relógio e desistência",
      paras: [
        "Uma mesa pode jogar com relógio: uma reserva de tempo para toda a partida mais alguns segundos acrescentados depois de cada jogada tua. O teu relógio só corre quando é a tua vez.",
        "A dois, ficar sem tempo ou desistir perde a partida. Numa mesa de três ou mais, qualquer das duas coisas acaba a partida para todos: quem desistiu ou ficou sem tempo é o último, quem já chegou mantém o seu lugar e os outros são ordenados pelas bolas no destino.",
        "Só pode desistir quem ainda está na corrida: depois de chegares, o teu lugar é teu.",
      ],
    },
    {
      id: "ratings",
      heading: "Classificação",
      paras: [
        "As partidas em mesas com classificação mudam a tua pontuação. Todos começam com 1500, com pontuações separadas para partidas a dois, para partidas de três a seis jogadores e para partidas de equipas.",
        "A dois, ganhar a um adversário mais forte dá mais pontos do que ganhar a um mais fraco, e perder com um mais fraco custa mais (o sistema Elo). Com mais jogadores o teu lugar é comparado com o de cada adversário, como se tivesses jogado com cada um sozinho; as variações são ajustadas para que uma partida conte mais ou menos o mesmo que uma partida a dois. Os parceiros de equipa nunca são avaliados um contra o outro.",
      ],
    },
    {
      id: "variants",
      heading: "Variantes",
      paras: [
        "• Clássica: o jogo descrito acima, a 2, 3, 4 ou 6.",
        "• Saltos longos: uma bola pode saltar por cima de uma fila inteira e contínua de bolas ao seu lado, caindo no primeiro buraco depois da fila, que tem de estar vazio.",
        "• Saltos simétricos: uma bola pode saltar por cima de uma única bola mais afastada numa linha, só com buracos vazios dos dois lados, e cai para lá dessa bola à mesma distância de onde partiu.",
        "• 15 bolas: cada casa e cada destino é um triângulo maior de 15 buracos, e o prazo é de 40 jogadas.",
        "• Pares: duas ou três equipas de dois parceiros sentados frente a frente, de modo que cada um vai para a casa do outro. Uma equipa termina quando os dois parceiros chegaram.",
        "• Masters: uma bola pode acabar a jogada num buraco do seu destino ocupado por uma bola adversária; essa bola vai para o buraco de onde veio a bola que se move.",
      ],
      figures: [
        { diagram: "long", caption: "Saltos longos: a bola em i5 salta a fila de três bolas em i6, i7 e i8 e cai em i9." },
        { diagram: "symmetric", caption: "Saltos simétricos: a bola preta em i8 está a três buracos de i5, por isso a bola branca cai três buracos depois dela, em i11." },
        { diagram: "fifteen", caption: "Com 15 bolas cada casa entra uma fila no hexágono." },
        { diagram: "masters", caption: "Masters: a bola branca em h12 salta para h14, no seu destino; a bola preta que lá estava vai para h12." },
      ],
    },
  ],
};
