import type { RulesDoc } from "./types";

/** The rules in English. */
export const rulesEn: RulesDoc = {
  title: "Chinese checkers — the rules",
  sections: [
    { heading: "Basics", paras: [
      "Chinese checkers (Stern-Halma) is played on a star of 121 holes: a hexagon of 61 in the middle and six triangular points of 10. Each player has a point where their 10 marbles start. Two, three, four or six play.",
    ] },
    { heading: "The aim", paras: [
      "Bring all your marbles into the point opposite your home. There are no captures: marbles only step and jump over each other. The first to arrive takes first place; the others play on for the next places.",
    ] },
    { heading: "Seats", paras: [
      "• Two players — opposite points (white and black).",
      "• Three — every other point (white, blue, yellow); the goals are the empty opposite points.",
      "• Four — two pairs of opposite points (white, red, black, yellow); two points stay empty.",
      "• Six — every point is taken.",
      "Play goes clockwise; white moves first. The seat colours clockwise from the bottom: white, red, blue, black, yellow, green.",
    ] },
    { heading: "Moves", paras: [
      "A move is one step or one chain of jumps of a single marble, never both.",
      "• Step — to one of the six neighbouring empty holes.",
      "• Jump — over a neighbouring marble of any colour to the empty hole right behind it. Jumps chain and you may stop after any of them. A chain never lands twice on the same hole, its starting hole included. Jumping is never compulsory.",
      "• A move may end only in the central hexagon, your own home or your goal. The other points may be crossed during a chain of jumps, never ended in.",
      "• A marble that has entered its goal moves only inside it.",
    ] },
    { heading: "Arriving and places", paras: [
      "You have arrived when all your marbles are in your goal. After your home-leaving deadline it is also enough that every hole of your goal is occupied and at least one marble there is yours: another player's marble left in your goal cannot stop you.",
      "An arrived player's turns are skipped; their marbles stay on the board.",
    ] },
    { heading: "Notation", paras: [
      "Holes are named by a letter and a number: rows 1–17 from bottom to top, oblique lines a–q from left to right. The bottom tip is m1, the top tip e17, the centre i9. A move is written as the marble's path with hyphens: l2-l3 is a step, m1-m3-k5 a chain of two jumps.",
    ] },
    { heading: "At the table", paras: [
      "Click one of your marbles: the holes it can reach light up — neighbours for a step and the end of every jump chain. The other points are shaded grey: no stopping there. Hover a hole to see the path, then click. With the keyboard, the arrow keys choose a hole, Enter picks up a marble or moves, Esc puts it down, and Tab reaches the marbles that can move and then the marked holes. Everyone sees the star with their own point at the bottom; the goal is outlined in gold.",
    ] },
    { heading: "Home-leaving deadline", paras: [
      "Every marble must have left home by the end of its owner's 30th move (40th with 15 marbles). A marble that has no way out because other marbles block it does not break the deadline. Breaking it eliminates the player: with two players that is a loss; with three or more it is the worst free place and their marbles leave the board.",
      "After the deadline, a move that ends in your own home is legal but eliminates you, so the table asks for confirmation first.",
    ] },
    { heading: "Two players: the second player's last move", paras: [
      "If white arrives, black still makes its move of that round; if black then arrives too, the game is a draw.",
    ] },
    { heading: "Limit and repetition", paras: [
      "A game lasts at most 150 rounds. At the limit, when a position occurs for the third time, or when no one can move, the game ends: unfinished players are placed by their marbles in the goal, then by who is closer to it. If only one player cannot move, their turn is skipped.",
    ] },
    { heading: "Clock and resignation", paras: [
      "Each player has a time reserve plus an increment after every move. Running out of time loses with two players. At a table of three or more, a resignation or a flag ends the game for everyone: whoever resigned or flagged is last, arrived players keep their places, the others are placed by marbles in the goal.",
    ] },
    { heading: "Rating", paras: [
      "Two players: Elo, a draw counting half a point. Three to six: by places, against every opponent as a separate pairwise game. Teams are rated by the team's place, on a scale of their own.",
    ] },
    { heading: "Variants", paras: [
      "• Classic for 2, 3, 4 and 6 — the game above.",
      "• Long jumps — a jump passes over a straight unbroken row of marbles next to yours and lands on the first hole beyond them, which must be empty.",
      "• 15 marbles (2 and 3 players) — the home is the point plus the five hexagon holes of the edge facing it; the deadline is 40 moves.",
      "• Pairs 2×2 and three pairs — partners sit in opposite points; a team has arrived when both partners have.",
      "• Masters swap — landing in your goal on another player's marble swaps it to the hole you came from; the swap ends the move.",
      "• Symmetric jumps — jump over one marble at any distance along a line to the same distance beyond it, every hole in between empty.",
    ] },
  ],
};
