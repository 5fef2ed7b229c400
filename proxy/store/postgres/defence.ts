/**
 * The PostgreSQL store's defence-mode periods. On the lazy pool: a database crash loses at most a
 * period that the next crossing restarts.
 */
import { newClaimToken } from "../claims";
import { CROSS_DEFENCE_SQL, END_DEFENCES_SQL, toDefenceState } from "../defence";
import type { DefenceStore } from "../types";
import type { PgContext } from "./connection";

const pg = (n: number) => `$${n}`;
const DEFENCE_SELECT = "SELECT scope, signal, value, since_ms, until_ms, ended FROM defence_modes";
interface DefenceRow {
  scope: string;
  signal: string;
  value: number;
  since_ms: string;
  until_ms: string;
  ended: number;
}

export function pgDefence({ query, lazy, now }: PgContext): DefenceStore {
  return {
    async crossDefence(scope, signal, value, quietMs) {
      const nonce = newClaimToken();
      const at = now();
      const { rows } = await query<DefenceRow & { started_by: string }>(
        CROSS_DEFENCE_SQL("GREATEST", pg),
        [scope, signal, value, at, at + quietMs, nonce],
        lazy,
      );
      return { entered: rows[0]!.started_by === nonce, state: toDefenceState(rows[0]!) };
    },
    async defenceStates(scopes) {
      const { rows } = scopes
        ? await query<DefenceRow>(
            `${DEFENCE_SELECT} WHERE scope = ANY($1) ORDER BY scope`,
            [scopes],
            lazy,
            "givekit-defence-states",
          )
        : await query<DefenceRow>(`${DEFENCE_SELECT} ORDER BY scope`, [], lazy);
      return rows.map(toDefenceState);
    },
    async endDefences() {
      const { rows } = await query<DefenceRow>(END_DEFENCES_SQL(pg), [now()], lazy);
      return rows.map(toDefenceState);
    },
  };
}
