/** How a seat's occupant is named in the language in use. */
import { t } from "../i18n/i18n";
import type { PlayerView } from "./wire";

/** A person's name, "computer (level N)" or "free seat". */
export function playerName(p: PlayerView): string {
  switch (p.kind) {
    case "human":
      return p.name;
    case "computer":
      return t("player.computer", { level: p.level });
    case "open":
      return t("online.emptySeat");
  }
}
