import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../src/i18n/i18n";
import { headline, ordinal, reasonSentence, verdictOf } from "../src/table/ending";

afterEach(() => setLang("en"));

describe("end of game in words", () => {
  it("says who won, places and draws", () => {
    const seats = ["white", "red", "blue", "black"] as const;
    const out = { reason: "arrived", places: { white: 2, red: 1, blue: 4, black: 3 } };
    expect(headline(out, "classic-4", seats, "white")).toBe("You finished 2nd of 4.");
    expect(headline(out, "classic-4", seats, "red")).toBe("You won!");
    expect(headline(out, "classic-4", seats, null)).toBe("Red won.");
    const draw = { reason: "arrived", places: { white: 1, black: 1 } };
    expect(headline(draw, "classic-2", ["white", "black"], "white")).toBe("Draw.");
    expect(verdictOf(draw, "classic-2", "black")).toBe("draw");
  });
  it("counts partners as one side", () => {
    const out = { reason: "arrived", places: { white: 1, black: 1, red: 2, yellow: 2 } };
    expect(verdictOf(out, "pairs-2x2", "black")).toBe("won");
    expect(headline(out, "pairs-2x2", ["white", "red", "black", "yellow"], "red")).toBe("You finished 2nd of 2.");
  });
  it("names who resigned or ran out of time", () => {
    expect(reasonSentence("resigned-black")).toBe("Black resigned.");
    expect(reasonSentence("timeout-white")).toBe("White ran out of time.");
    expect(reasonSentence("repetition")).toBe("The same position came up for the third time.");
    expect(reasonSentence("arrived", { white: 1, black: 2 })).toBe("White brought all their marbles into the goal first.");
  });
  it("speaks every language", () => {
    setLang("it");
    expect(reasonSentence("resigned-black")).toBe("Nero ha abbandonato.");
    expect(reasonSentence("arrived", { white: 2, black: 1 })).toBe("Nero ha portato per primo tutte le sue biglie nella punta d'arrivo.");
    expect(ordinal(2)).toBe("2º");
    setLang("el");
    expect(headline({ reason: "arrived", places: { white: 1, black: 2 } }, "classic-2", ["white", "black"], null)).toBe("Κέρδισαν τα Λευκά.");
    expect(reasonSentence("arrived", { white: 1, black: 2 })).toBe("Τα Λευκά έφεραν πρώτα όλους τους βόλους τους στην κορυφή προορισμού.");
    setLang("pt");
    expect(reasonSentence("timeout-white")).toBe("As Brancas ficaram sem tempo.");
    expect(reasonSentence("arrived", { white: 1, black: 2 })).toBe("As Brancas levaram primeiro todas as suas bolas à ponta de chegada.");
    expect(ordinal(11, "en")).toBe("11th");
    expect(ordinal(22, "en")).toBe("22nd");
  });
});
