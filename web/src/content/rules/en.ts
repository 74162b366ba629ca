import type { RulesDoc } from "./types";

/** The rules for players, in English. */
export const rulesEn: RulesDoc = {
  title: "How to play Chinese checkers",
  sections: [
    {
      id: "game",
      heading: "The game",
      paras: [
        "Chinese checkers, also called Stern-Halma, is a race across a six-pointed star. Every player starts with 10 marbles in one point of the star and tries to bring them all into the point straight across the board. Nothing is ever captured: marbles step to a neighbouring hole or jump over other marbles, and a well-built chain of jumps is the fastest way across.",
        "Two, three, four or six people can play. The first to bring all their marbles across takes first place; the others play on for the places that are left.",
      ],
      figures: [
        { diagram: "start", caption: "Two players at the start. White begins at the bottom and heads for the top point, outlined in gold; black races the other way." },
      ],
    },
    {
      id: "board",
      heading: "The board",
      paras: [
        "The star has 121 holes: a hexagon of 61 in the middle and six triangular points of 10. The point where your marbles start is your home; the point opposite it is your goal.",
        "Every hole has a name, which the list of moves uses: a letter for the slanting line (a to q, from left to right) and a number for the row (1 to 17, from bottom to top). The bottom tip is m1, the top tip e17 and the centre i9. A move is written as the holes its marble visits: l2-l3 is a step, m1-m3-k5 a chain of two jumps.",
      ],
      figures: [{ diagram: "board", caption: "The six points in their seats' colours around the hexagon, with a few hole names." }],
    },
    {
      id: "seats",
      heading: "Seats and turns",
      paras: [
        "• Two players sit in opposite points: white and black.",
        "• Three players take every other point: white, blue and yellow. Each of them heads for an empty point.",
        "• Four players use two pairs of opposite points: white, red, black and yellow.",
        "• Six players fill every point: white, red, blue, black, yellow and green.",
        "White always moves first; then the turn goes clockwise round the star. On your screen the star is turned so that your own home is at the bottom.",
      ],
      figures: [{ diagram: "seats", caption: "Three players: white, blue and yellow each aim for the empty point opposite them (outlined)." }],
    },
    {
      id: "moves",
      heading: "Steps and jumps",
      paras: [
        "On your turn you move one of your marbles in one of two ways, never both in the same turn:",
        "• a step, to one of the six holes next to it, if that hole is empty;",
        "• a jump, over a marble right next to it (of any colour, your own too) into the empty hole just behind that marble, in a straight line. The marble you jump over stays where it is.",
        "Jumping is never compulsory, even when a jump is there to be made.",
      ],
      figures: [
        { diagram: "step", caption: "A step: the marble on i9 may move to any of its six neighbours that is empty." },
        { diagram: "jump", caption: "A jump: the white marble on i7 jumps over the black marble on i8 and lands on i9." },
      ],
    },
    {
      id: "chains",
      heading: "Chains of jumps",
      paras: [
        "After a jump, the same marble may jump again, and again, for as long as there is a jump to make; you may stop after any of them. A long chain can carry a marble across half the board in one move.",
        "A chain never lands twice on the same hole, and it cannot come back to the hole it started from.",
      ],
      figures: [
        { diagram: "chain", caption: "The chain i5-i7-g9-g11. The marble could also have stopped on i7 or on g9 (the green rings)." },
      ],
    },
    {
      id: "foreign",
      heading: "Other players' points",
      paras: [
        "A point that is neither your home nor your goal is a foreign point for you. A chain of jumps may pass through it, but your move may not end there: every move ends in the hexagon, in your home or in your goal.",
        "That way nobody can park marbles in a third player's path.",
      ],
      figures: [
        { diagram: "foreign", caption: "The chain h7-f7-f9 crosses red's point and ends in the hexagon. Stopping on f7, inside red's point, is not allowed." },
      ],
    },
    {
      id: "goal",
      heading: "Your goal",
      paras: [
        "Once one of your marbles is in your goal it stays there: it may still move, but only from hole to hole inside the goal. A chain that merely passes through your goal and ends outside it has not entered it.",
      ],
      figures: [
        { diagram: "goal", caption: "In white's goal, the marble on f15 may step to f16, but the marble on g14 may not jump out to g12." },
      ],
    },
    {
      id: "deadline",
      heading: "The home-leaving deadline",
      paras: [
        "All your marbles must be out of your home by the end of your 30th move (your 40th with 15 marbles). If one is still at home then, you are eliminated: with two players you lose the game; with more, you take the last place still free and your marbles are taken off the board.",
        "A marble that cannot get out because other marbles wall it in is excused. It may leave later, as soon as a way opens, and until then it may move around inside your home.",
        "After the deadline, bringing a marble from outside back into your home also eliminates you. The table asks you to confirm before it plays such a move.",
      ],
      figures: [
        { diagram: "walled", caption: "At white's 30th move the marble on m1 is walled in by black marbles: it is excused." },
        { diagram: "afterDeadline", caption: "Later the excused marble may step from m1 to m2 inside the home, but taking the marble on j5 back to j4 would eliminate white." },
      ],
    },
    {
      id: "arrival",
      heading: "Arriving",
      paras: [
        "You have arrived when all your marbles are in your goal. The first to arrive takes first place; from then on your turns are skipped and your marbles stay on the board, where others may still jump over them.",
        "Sometimes an opponent leaves a marble behind in your goal, which is their home. Once you have made your first 30 moves it is enough that every hole of your goal is filled and at least one of the marbles there is yours: the marble left behind cannot stop you from finishing.",
      ],
      figures: [
        { diagram: "arrival", caption: "White's goal is full: nine white marbles and a black one that never left. White has arrived." },
      ],
    },
    {
      id: "end",
      heading: "The end of the game",
      paras: [
        "With two players, white has moved first, so black always gets its move of the same round. If black arrives with that move too, the game is a draw.",
        "With three or more, the others play on for the remaining places until one player is left; that player takes the last place.",
        "A game also ends after 150 rounds, when the same position comes up for the third time with the same player to move, or when nobody can move. Players who have not arrived are then ranked by how many of their marbles are in their goal, and when that is equal, by how close their marbles are to it.",
        "If only you cannot move, you miss your turn and the game goes on.",
      ],
    },
    {
      id: "clock",
      heading: "Clocks and resigning",
      paras: [
        "A table can play with a clock: a reserve of time for the whole game plus a few seconds added after each of your moves. Your clock runs only while it is your turn.",
        "With two players, running out of time or resigning loses the game. At a table of three or more, either one ends the game for everyone: the player who resigned or ran out of time is last, players who have arrived keep their places, and the others are ranked by their marbles in their goal.",
        "Only a player still in the race can resign: once you have arrived, your place is yours.",
      ],
    },
    {
      id: "ratings",
      heading: "Ratings",
      paras: [
        "Games at rated tables change your rating. Everyone starts at 1500, with separate ratings for two-player games, for games of three to six players and for team games.",
        "With two players, beating a stronger opponent gains more than beating a weaker one, and losing to a weaker one costs more (the Elo system). With more players your place is compared with each opponent's, as if you had played each of them alone; the changes are scaled so that one game counts about as much as a two-player game. Partners in a team are never rated against each other.",
      ],
    },
    {
      id: "variants",
      heading: "Variants",
      paras: [
        "• Classic: the game described above, for 2, 3, 4 or 6 players.",
        "• Long jumps: a marble may jump over a whole unbroken line of marbles next to it, landing on the first hole after them, which must be empty.",
        "• Symmetric jumps: a marble may jump over a single marble further along a line, with only empty holes on both sides of it, and lands as far beyond that marble as it started before it.",
        "• 15 marbles: every home and goal is a larger triangle of 15 holes, and the deadline is 40 moves.",
        "• Pairs: two or three teams of two partners sitting opposite each other, so each goes to the other's home. A team has finished when both partners have arrived.",
        "• Masters: a marble may end its move on a hole of its goal where an opponent's marble stands; that marble goes to the hole the moving marble came from.",
      ],
      figures: [
        { diagram: "long", caption: "Long jumps: the marble on i5 jumps the line of three marbles on i6, i7 and i8 and lands on i9." },
        { diagram: "symmetric", caption: "Symmetric jumps: the black marble on i8 is three holes away from i5, so the white marble lands three holes beyond it, on i11." },
        { diagram: "fifteen", caption: "With 15 marbles each home reaches one row into the hexagon." },
        { diagram: "masters", caption: "Masters: the white marble on h12 jumps onto h14 in its goal; the black marble there goes to h12." },
      ],
    },
  ],
};
