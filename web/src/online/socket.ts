/**
 * The WebSocket to the server, reconnecting after a dropped connection with a growing
 * pause. Subscriptions (the lobby, watched tables) are re-sent after reconnecting by
 * the `onOpen` listeners, which know what they need.
 */
import type { ClientMsg, ServerMsg } from "./wire";

/** Connection state shown to people. */
export type SocketState = "connecting" | "open" | "lost";

/** Pause before the n-th reconnection attempt (n from 0): 0.5 s doubling up to 8 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(8000, 500 * 2 ** attempt);
}

/** A self-healing connection to `/ws`. */
export class Socket {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly messageListeners = new Set<(m: ServerMsg) => void>();
  private readonly openListeners = new Set<() => void>();
  private readonly stateListeners = new Set<(s: SocketState) => void>();
  /** Current state. */
  state: SocketState = "connecting";

  constructor(private readonly url: string = defaultUrl()) {
    this.connect();
  }

  private setState(s: SocketState): void {
    this.state = s;
    for (const l of this.stateListeners) l(s);
  }

  private connect(): void {
    if (this.closed) return;
    this.setState(this.attempt === 0 ? "connecting" : "lost");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.setState("open");
      for (const l of this.openListeners) l();
    });
    ws.addEventListener("message", (e) => {
      let msg: ServerMsg;
      try {
        msg = JSON.parse(String(e.data)) as ServerMsg;
      } catch {
        return;
      }
      for (const l of this.messageListeners) l(msg);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws || this.closed) return;
      this.setState("lost");
      this.timer = setTimeout(() => this.connect(), reconnectDelay(this.attempt++));
    });
  }

  /** Sends a message if connected; returns whether it was sent. */
  send(msg: ClientMsg): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Drops the connection and opens a new one (e.g. after logging in). */
  reconnect(): void {
    this.attempt = 0;
    const old = this.ws;
    this.ws = null;
    old?.close();
    this.connect();
  }

  /** Listens to server messages; returns a function that stops listening. */
  onMessage(f: (m: ServerMsg) => void): () => void {
    this.messageListeners.add(f);
    return () => this.messageListeners.delete(f);
  }

  /** Called after every (re)connection. */
  onOpen(f: () => void): () => void {
    this.openListeners.add(f);
    if (this.state === "open") f();
    return () => this.openListeners.delete(f);
  }

  /** Called on every change of state. */
  onState(f: (s: SocketState) => void): () => void {
    this.stateListeners.add(f);
    return () => this.stateListeners.delete(f);
  }

  /** Closes for good. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.ws?.close();
  }
}

function defaultUrl(): string {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws`;
}
