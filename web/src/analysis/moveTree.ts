/**
 * The move tree of the analysis board: the game's moves as the main line and every
 * move tried from any position as a variation. Each node is one move (the root is the
 * start); the first child of a node continues its line, the others are variations.
 *
 * Export and import use the record format extended with variations
 * (docs/record-format.md, "Variations"): a variation is written in parentheses right
 * after the move it replaces, e.g. `1. m3-m5 e15-e13 (f15-f13 2. l3-l5) 2. l3-l4`.
 */

/** One node of the tree. */
export interface TreeNode {
  /** Unique within its tree. */
  readonly id: number;
  /** The move leading here (a canonical path), `null` at the root. */
  readonly path: string | null;
  /** The node this move was played from, `null` at the root. */
  readonly parent: TreeNode | null;
  /** Moves tried from here: the first continues this line, the others are variations. */
  readonly children: TreeNode[];
  /** Number of moves from the start. */
  readonly ply: number;
}

/** A record of a tree: its tags and the move text with variations. */
export interface TreeRecord {
  /** Tag pairs in order, e.g. `["Variant", "classic-2"]`. */
  readonly tags: readonly (readonly [string, string])[];
  /** The root of the moves. */
  readonly tree: MoveTree;
}

/** A tree of moves from one start. */
export class MoveTree {
  /** The start. */
  readonly root: TreeNode;
  private nextId = 1;
  private readonly byId = new Map<number, TreeNode>();

  constructor() {
    this.root = { id: 0, path: null, parent: null, children: [], ply: 0 };
    this.byId.set(0, this.root);
  }

  /** A tree holding `moves` as its main line. */
  static ofLine(moves: readonly string[]): MoveTree {
    const tree = new MoveTree();
    let at = tree.root;
    for (const m of moves) at = tree.add(at, m);
    return tree;
  }

  /** The node with this id. */
  node(id: number): TreeNode | undefined {
    return this.byId.get(id);
  }

  /** The child of `from` reached by `path`, added (as a variation if `from` already has a continuation) unless it is there. */
  add(from: TreeNode, path: string): TreeNode {
    const known = from.children.find((c) => c.path === path);
    if (known) return known;
    const node: TreeNode = { id: this.nextId++, path, parent: from, children: [], ply: from.ply + 1 };
    from.children.push(node);
    this.byId.set(node.id, node);
    return node;
  }

  /** Removes `node` and everything after it (never the root). */
  remove(node: TreeNode): void {
    if (!node.parent) return;
    const siblings = node.parent.children;
    siblings.splice(siblings.indexOf(node), 1);
    const drop = (n: TreeNode) => {
      this.byId.delete(n.id);
      n.children.forEach(drop);
    };
    drop(node);
  }

  /** Makes the line through `node` the main line at every branching on its way from the start. */
  promote(node: TreeNode): void {
    for (let n = node; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      siblings.splice(siblings.indexOf(n), 1);
      siblings.unshift(n);
    }
  }

  /** The moves from the start to `node`. */
  pathTo(node: TreeNode): string[] {
    const out: string[] = [];
    for (let n: TreeNode | null = node; n && n.path !== null; n = n.parent) out.push(n.path);
    return out.reverse();
  }

  /** The nodes of the main line after the root, in order. */
  mainLine(): TreeNode[] {
    const out: TreeNode[] = [];
    for (let n = this.root.children[0]; n; n = n.children[0]) out.push(n);
    return out;
  }

  /** The move text with variations; `seats` moves make a round (numbered `1.`, `2.` …). */
  moveText(seats: number): string {
    const words: string[] = [];
    const number = (ply: number) => `${Math.floor(ply / seats) + 1}.`;
    const line = (from: TreeNode, opening: boolean) => {
      let n = from;
      let first = opening;
      while (n.children.length > 0) {
        const [main, ...others] = n.children;
        if (first || n.ply % seats === 0) words.push(number(n.ply));
        words.push(main.path!);
        for (const v of others) {
          words.push(`(${number(n.ply)}`);
          words.push(v.path!);
          line(v, false);
          words[words.length - 1] += ")";
        }
        first = others.length > 0;
        n = main;
      }
    };
    line(this.root, true);
    return words.join(" ");
  }
}

/** Why a record could not be read, with the place of the fault. */
export class TreeRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TreeRecordError";
  }
}

const PATH = /^[a-q]\d{1,2}(-[a-q]\d{1,2})+$/;

/** Writes a record: tag lines, a blank line, the move text with variations, `*`. */
export function writeTreeRecord(tags: readonly (readonly [string, string])[], tree: MoveTree, seats: number): string {
  const tagLines = tags.map(([k, v]) => `[${k} "${v.replace(/"/g, '\\"')}"]`);
  const text = tree.moveText(seats);
  return `${tagLines.join("\n")}\n\n${text ? `${text} *` : "*"}\n`;
}

/**
 * Reads a record with or without variations. Move numbers, results and `;` comment
 * lines are skipped, as the record importer does; moves are checked by the engine
 * afterwards, when the board replays them.
 */
export function readTreeRecord(text: string): TreeRecord {
  const tags: [string, string][] = [];
  const tree = new MoveTree();
  const stack: TreeNode[] = [];
  let at = tree.root;
  /** The node the last move was played from (a variation starts there). */
  let before = tree.root;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith(";")) continue;
    if (line.startsWith("[")) {
      const m = /^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$/.exec(line);
      if (!m) throw new TreeRecordError(`line ${i + 1}: a tag is written [Name "value"]`);
      tags.push([m[1], m[2].replace(/\\"/g, '"')]);
      continue;
    }
    for (const raw of line.split(/\s+/)) {
      let token = raw;
      while (token.startsWith("(")) {
        stack.push(at, before);
        at = before;
        token = token.slice(1);
      }
      let closes = 0;
      while (token.endsWith(")")) {
        closes++;
        token = token.slice(0, -1);
      }
      if (token && !/^\d+\.+$/.test(token) && token !== "*" && !token.includes("=")) {
        if (!PATH.test(token)) throw new TreeRecordError(`line ${i + 1}: "${token}" is not a move`);
        before = at;
        at = tree.add(at, token);
      }
      for (; closes > 0; closes--) {
        if (stack.length === 0) throw new TreeRecordError(`line ${i + 1}: ")" without "("`);
        before = stack.pop()!;
        at = stack.pop()!;
      }
    }
  }
  if (stack.length > 0) throw new TreeRecordError('a variation is not closed with ")"');
  if (!tags.some(([k]) => k === "Variant")) throw new TreeRecordError('the record has no [Variant "…"] tag');
  return { tags, tree };
}
