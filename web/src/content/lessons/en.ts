import type { LessonTexts } from "./types";

/** Lessons in English. */
export const lessonsEn: LessonTexts = {
  goal: {
    title: "First, know where you are going",
    body: [
      "Chinese checkers is a race. Every player starts with ten marbles in one point of the star and tries to bring them all into the point straight opposite. No captures, no kings, no scores: whoever fills their goal first wins.",
      "In a two-player game your goal is the point your opponent starts in, and theirs is yours. It is outlined in gold. The marbles may arrive in any order.",
    ],
    task: "Move any white marble closer to the gold point.",
    right: "That marble is nearer its goal now.",
    wrong: "that move did not bring the marble closer to the gold point.",
  },
  step: {
    title: "A step moves one hole",
    body: [
      "Pick a marble and move it to any empty neighbouring hole. The six holes touching it are the possible steps; occupied ones are not available.",
      "A step is short and final: as soon as the marble enters the neighbouring hole your turn is over. You cannot add a jump after it.",
    ],
    task: "Move the white marble on i9 one step.",
    right: "A step: one hole, and the turn is over.",
    wrong: "that was not a step of the marble on i9 (a jump goes over a marble).",
  },
  jump: {
    title: "A jump goes over a neighbouring marble",
    body: [
      "Look at three holes on one straight line: your marble, an occupied neighbour, and the empty hole right behind it. That empty hole is a landing.",
      "You may jump over your own marble or an opponent's. Nothing is captured: the marble jumped over stays where it is.",
    ],
    task: "Make a jump with a white marble.",
    right: "A jump: over one marble into the empty hole behind it.",
    wrong: "that was a step, not a jump.",
  },
  chain: {
    title: "Land, look again and go on",
    body: [
      "After each landing, read the board again from the marble's new hole. If another neighbouring marble has an empty hole behind it, the same marble may jump again. The path can change direction at every landing.",
      "In a real game's move 21, black went over marbles of both colours in four jumps in a row. You may stop after any landing, but you cannot switch to another marble in the middle of the chain.",
    ],
    task: "Take the marble on i7 as far as it can go: four jumps, to i13.",
    right: "Four jumps in one move: i7-i9-g11-i11-i13.",
    wrong: "the chain can go further. Hover the marked holes to see each path.",
  },
  setups: {
    title: "Two, three, four or six",
    body: [
      "Two players use opposite points, so each colour starts inside the other's goal. Three use every other point, and every goal starts empty. Four use two pairs of opposite points, leaving two points empty. Six fill the star.",
      "Five is not a standard game: one player would face the only empty point and the race would not be fair. White always moves first, then play goes clockwise.",
    ],
    task: "Choose a number of players, look at the star, then make white's first move.",
    right: "White opens every game; the others follow clockwise.",
    wrong: "any white move would do here.",
  },
  tenth: {
    title: "The tenth marble wins",
    body: [
      "The game is won as soon as a player has all ten marbles inside the opposite point. It does not matter which marble stands on which hole.",
      "Here nine white marbles have arrived. In a game of three or more, the others would play on for the next places, and the winner's marbles stay on the board.",
    ],
    task: "Fill the last empty hole of the goal.",
    right: "All ten are home: white has arrived.",
    wrong: "the goal still has an empty hole. Bring the tenth marble in.",
  },
  directions: {
    title: "You may move in all six directions",
    body: [
      "The rules have no idea of “forward”. A step or a jump may bring you closer to the goal, take you away from it, or go sideways. Backward moves are often useful because they prepare a better chain for the next turn.",
    ],
    task: "Make a move with the marble on i9 that goes sideways or backwards.",
    right: "Backwards and sideways are legal, and sometimes the best move.",
    wrong: "that move went forwards. Try one that does not.",
  },
  colours: {
    title: "Jump marbles of any colour, but never capture",
    body: [
      "Your marbles and your opponents' are all bridges. The marble you jump over is never removed: Chinese checkers has no captures, no kings and no promotion.",
    ],
    task: "Jump over the black marble.",
    right: "The black marble is still there: jumping never captures.",
    wrong: "that move did not jump over the black marble.",
  },
  optional: {
    title: "Jumps are optional, and so is finishing a chain",
    body: [
      "You are never forced to jump just because a jump is there, nor to complete the longest chain. You may stop after any landing.",
      "One turn uses one marble and one kind of move: it cannot start with a step and go on with a jump, and a chain cannot pass to another marble.",
    ],
    task: "Jump with the marble on i7, and stop after the first jump.",
    right: "You stopped after the first landing: that is allowed.",
    wrong: "stop on the first landing, i9.",
  },
};
