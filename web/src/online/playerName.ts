/** How a seat's occupant is named in the language in use. */
import { t } from "../i18n/i18n";
import type { PlayerView, TableSummary } from "./wire";

/** A user's name, marked when the account is a bot's. */
export function userName(u: { readonly name: string; readonly bot?: boolean }): string {
  return u.bot ? `${t("player.bot")} ${u.name}` : u.name;
}

/** A person's name (marked if a bot), "computer (level N)" or "free seat". */
export function playerName(p: PlayerView): string {
  switch (p.kind) {
    case "human":
      return userName(p);
    case "computer":
      return t("player.computer", { level: p.level });
    case "open":
      return t("online.emptySeat");
  }
}

/** The name of the player in `seat`, marked "offline" when a person sits there but has
 * no connection following the table. */
export function seatLabel(table: TableSummary, seat: number): string {
  const p = table.seats[seat].player;
  const offline = p.kind === "human" && table.connected?.[seat] === false;
  return offline ? `${playerName(p)} (${t("presence.offline")})` : playerName(p);
}
