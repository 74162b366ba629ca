/**
 * The online session shared by the online pages: who is logged in (from `/api/me`)
 * and one live connection to `/ws`, opened when an online page first needs it.
 */
import { api, ApiError } from "./api";
import { Socket } from "./socket";
import type { UserInfo } from "./wire";

let user: UserInfo | null | undefined;
let socket: Socket | null = null;
const listeners = new Set<(u: UserInfo | null) => void>();

/** The logged-in user; asks the server the first time. `null` when nobody is. */
export async function currentUser(): Promise<UserInfo | null> {
  if (user !== undefined) return user;
  try {
    user = (await api.me()).user;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) user = null;
    else throw e;
  }
  return user;
}

/** The user as last known, without asking. */
export function knownUser(): UserInfo | null {
  return user ?? null;
}

/** Records a login or logout; the connection reopens so the server sees the session. */
export function setUser(u: UserInfo | null): void {
  user = u;
  socket?.reconnect();
  for (const l of listeners) l(u);
}

/** Called after every login or logout. */
export function onUserChange(f: (u: UserInfo | null) => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** The shared live connection. */
export function liveSocket(): Socket {
  socket ??= new Socket();
  return socket;
}
