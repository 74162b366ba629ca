import { describe, expect, it } from "vitest";
import { escapeHtml, inline, markdownToHtml } from "../src/content/markdown";
import { between, isStep, jumpCount, LESSONS } from "../src/learn/lessons";
import { matchRoute } from "../src/router";
import { formatClock, reasonText } from "../src/table/labels";

describe("markdown", () => {
  it("renders headings, lists, tables and inline code, escaping HTML", () => {
    const html = markdownToHtml("# Rules\n\nA *move* is `m1-m3`.\n\n- one\n- **two**\n\n| id | n |\n|---|---|\n| classic-2 | 2 |\n\n<script>x</script>");
    expect(html).toContain("<h1>Rules</h1>");
    expect(html).toContain("<em>move</em>");
    expect(html).toContain("<code>m1-m3</code>");
    expect(html).toContain("<ul><li>one</li><li><strong>two</strong></li></ul>");
    expect(html).toContain("<td>classic-2</td>");
    expect(html).not.toContain("<script>");
    expect(escapeHtml("<a&b>")).toBe("&lt;a&amp;b&gt;");
    expect(inline("[rules](/rules)")).toBe('<a href="/rules">rules</a>');
    expect(inline("[x](javascript:alert(1))")).not.toContain("href");
  });
});

describe("lessons", () => {
  it("tells steps from jumps", () => {
    const step = { from: "i9", to: "h9", path: ["i9", "h9"], eliminates: false };
    const jump = { from: "i9", to: "i11", path: ["i9", "i11"], eliminates: false };
    const chain = { from: "i7", to: "i13", path: ["i7", "i9", "g11", "i11", "i13"], eliminates: false };
    expect(isStep(step)).toBe(true);
    expect(jumpCount(step)).toBe(0);
    expect(jumpCount(jump)).toBe(1);
    expect(jumpCount(chain)).toBe(4);
    expect(between("i9", "k9")).toBe("j9");
    expect(between("i7", "i9")).toBe("i8");
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
  });
});

describe("routes and labels", () => {
  it("matches every page", () => {
    expect(matchRoute("/").name).toBe("home");
    expect(matchRoute("/offline").name).toBe("offline");
    expect(matchRoute("/learn/chain")).toEqual({ name: "lesson", params: { id: "chain" } });
    expect(matchRoute("/table/abc")).toEqual({ name: "table", params: { id: "abc" } });
    expect(matchRoute("/games/ann%20b")).toEqual({ name: "games", params: { user: "ann b" } });
    expect(matchRoute("/nope").name).toBe("notFound");
  });
  it("formats clocks and reasons", () => {
    expect(formatClock(65_000)).toBe("1:05");
    expect(formatClock(3_600_000)).toBe("1:00:00");
    expect(formatClock(-5)).toBe("0:00");
    expect(reasonText("round-limit")).toBe("the limit of 150 rounds was reached");
    expect(reasonText("resigned-red")).toBe("a player resigned");
    expect(reasonText("weird")).toBe("the game ended (weird)");
  });
});

describe("project rules for players", () => {
  it("keeps the title and the sections, not the note before them", async () => {
    const { playerRules } = await import("../src/pages/rulesPage");
    expect(playerRules("# Title\n\nNote for developers.\n\n## 1. Board\ntext")).toBe("# Title\n\n## 1. Board\ntext");
  });
});

describe("project rules without source references", () => {
  it("drops [000 §…] marks", async () => {
    const { playerRules } = await import("../src/pages/rulesPage");
    expect(playerRules("# T\n\n## 3. Moves  [000 §Le mosse, 001 §02–04]\n- x  [000, 003]")).toBe("# T\n\n## 3. Moves\n- x");
  });
});
