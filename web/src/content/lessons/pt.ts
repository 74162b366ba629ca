import type { LessonTexts } from "./types";

/** Lições em português. */
export const lessonsPt: LessonTexts = {
  goal: {
    title: "Primeiro, saiba para onde vai",
    body: [
      "As damas chinesas são uma corrida. Cada jogador começa com dez bolas numa ponta da estrela e tenta levá-las todas para a ponta diretamente oposta. Sem capturas, sem damas, sem pontos: vence quem preencher primeiro o seu destino.",
      "A dois, o seu destino é a ponta de onde o adversário parte, e o dele é a sua. Ele está contornado em dourado. As bolas podem chegar em qualquer ordem.",
    ],
    task: "Aproxime qualquer bola branca da ponta dourada.",
    right: "Essa bola agora está mais perto do destino.",
    wrong: "essa jogada não aproximou a bola da ponta dourada.",
  },
  step: {
    title: "Um passo move uma casa",
    body: [
      "Escolha uma bola e mova-a para qualquer casa vizinha vazia. As seis casas que a tocam são os passos possíveis; as ocupadas não estão disponíveis.",
      "Um passo é curto e definitivo: assim que a bola entra na casa vizinha, a sua vez acaba. Não dá para acrescentar um salto depois.",
    ],
    task: "Mova a bola branca de i9 um passo.",
    right: "Um passo: uma casa, e a vez acabou.",
    wrong: "isso não foi um passo da bola de i9 (um salto passa por cima de uma bola).",
  },
  jump: {
    title: "Um salto passa por cima de uma bola vizinha",
    body: [
      "Observe três casas numa mesma linha reta: a sua bola, uma vizinha ocupada e a casa vazia logo atrás dela. Essa casa vazia é um pouso válido.",
      "Pode saltar uma bola sua ou do adversário. Nada é capturado: a bola saltada fica onde está.",
    ],
    task: "Faça um salto com uma bola branca.",
    right: "Um salto: por cima de uma bola, para a casa vazia atrás dela.",
    wrong: "isso foi um passo, não um salto.",
  },
  chain: {
    title: "Pouse, olhe de novo e continue",
    body: [
      "Depois de cada pouso, leia o tabuleiro de novo a partir da nova casa da bola. Se outra bola vizinha tiver uma casa vazia atrás, a mesma bola pode saltar outra vez. O caminho pode mudar de direção a cada pouso.",
      "Na jogada 21 de uma partida real, as pretas passaram por cima de bolas das duas cores em quatro saltos seguidos. Pode parar depois de qualquer pouso, mas não pode trocar de bola no meio da cadeia.",
    ],
    task: "Leve a bola de i7 o mais longe possível: quatro saltos, até i13.",
    right: "Quatro saltos numa jogada: i7-i9-g11-i11-i13.",
    wrong: "a cadeia vai mais longe. Passe o cursor pelas casas marcadas para ver cada caminho.",
  },
  setups: {
    title: "A dois, três, quatro ou seis",
    body: [
      "A dois usam-se pontas opostas, assim cada cor começa dentro do destino da outra. A três usam-se pontas alternadas e cada destino começa vazio. A quatro usam-se dois pares de pontas opostas e duas pontas ficam vazias. A seis a estrela fica cheia.",
      "Cinco não é um formato padrão: um jogador ficaria diante da única ponta vazia e a corrida não seria justa. As brancas jogam sempre primeiro, depois a vez segue no sentido horário.",
    ],
    task: "Escolha o número de jogadores, observe a estrela e faça a primeira jogada das brancas.",
    right: "As brancas abrem todas as partidas; os outros seguem no sentido horário.",
    wrong: "aqui qualquer jogada das brancas servia.",
  },
  tenth: {
    title: "A décima bola vence",
    body: [
      "A partida está ganha assim que um jogador tem as dez bolas dentro da ponta oposta. Não importa qual bola ocupa qual casa.",
      "Aqui nove bolas brancas já chegaram. Com mais jogadores, os outros continuariam pelos lugares seguintes, e as bolas do vencedor ficam no tabuleiro.",
    ],
    task: "Preencha a última casa vazia do destino.",
    right: "As dez chegaram: as brancas terminaram.",
    wrong: "o destino ainda tem uma casa vazia. Traga a décima bola.",
  },
  directions: {
    title: "Pode mover-se nas seis direções",
    body: [
      "As regras não conhecem «para a frente». Um passo ou um salto pode aproximá-lo do destino, afastá-lo ou ir para o lado. Jogadas para trás costumam ser úteis porque preparam uma cadeia melhor para a vez seguinte.",
    ],
    task: "Faça com a bola de i9 uma jogada para o lado ou para trás.",
    right: "Para trás e para o lado são jogadas válidas, e às vezes as melhores.",
    wrong: "essa jogada foi para a frente. Tente uma que não vá.",
  },
  colours: {
    title: "Salte bolas de qualquer cor, mas sem capturar",
    body: [
      "As suas bolas e as dos adversários são todas pontes. A bola saltada nunca é retirada: nas damas chinesas não há capturas, nem damas, nem promoções.",
    ],
    task: "Salte por cima da bola preta.",
    right: "A bola preta continua lá: saltar nunca captura.",
    wrong: "essa jogada não saltou a bola preta.",
  },
  optional: {
    title: "Saltar é opcional, e terminar a cadeia também",
    body: [
      "Não é obrigado a saltar só porque há um salto, nem a completar a cadeia mais longa. Pode parar depois de qualquer pouso.",
      "Uma vez usa uma só bola e um só tipo de jogada: não começa com um passo para continuar com um salto, e uma cadeia não passa para outra bola.",
    ],
    task: "Salte com a bola de i7 e pare depois do primeiro salto.",
    right: "Parou no primeiro pouso: é permitido.",
    wrong: "pare no primeiro pouso, i9.",
  },
};
