/**
 * The saved forms as the campaign answers serve them (GET /v1/campaigns/…?form=name): each
 * form's latest version, read from the store at most every FORM_FRESH_MS per form and kept in
 * memory between, so a page load costs no query while a change saved on any proxy sharing the
 * store is served everywhere within that time (PostgreSQL), and at once on the proxy that saved it.
 */
import type { Campaign } from "../../contract/api";
import { isFormName, servedForm, type FormDesign, type ServedForm } from "../../contract/saved-forms";
import type { SavedFormStore, StoredFormVersion } from "../store";
import { ProblemError } from "../problem";
import { campaignScope } from "./directory";

/** How long a proxy serves a form's version before it asks the store again: under the 10 s every proxy must follow a save within. */
export const FORM_FRESH_MS = 5_000;

export function createSavedFormReader(deps: { store: SavedFormStore; freshMs?: number; now?: () => number }) {
  const freshMs = deps.freshMs ?? FORM_FRESH_MS;
  const now = deps.now ?? Date.now;
  const held = new Map<string, { at: number; read: Promise<StoredFormVersion | null> }>();
  const served = new WeakMap<StoredFormVersion, ServedForm>();

  function latest(name: string): Promise<StoredFormVersion | null> {
    const kept = held.get(name);
    if (kept && now() - kept.at < freshMs) return kept.read;
    const read = deps.store.savedForm(name);
    held.set(name, { at: now(), read });
    // A failed read is asked again by the next page, not kept.
    read.catch(() => held.delete(name));
    return read;
  }

  return {
    /**
     * The form `name` of `campaign` as its element takes it; a 400 naming `form` when the name is
     * not a slug, a 404 form_not_found when no form of that name belongs to the campaign.
     */
    async form(campaign: Campaign, name: string): Promise<ServedForm> {
      if (!isFormName(name))
        throw new ProblemError("validation_failed", "The form's name is not one a saved form has.", {
          form: ["A slug such as year-end."],
        });
      const version = await latest(name);
      if (!version || version.campaign !== campaignScope(campaign))
        throw new ProblemError("form_not_found", `No saved form "${name}" is served for this campaign.`);
      let form = served.get(version);
      if (!form) {
        form = servedForm(version.name, version.version, JSON.parse(version.design) as FormDesign);
        served.set(version, form);
      }
      return form;
    },
    /** A save on this proxy: its pages get the new version at once. */
    forget(name: string) {
      held.delete(name);
    },
  };
}
export type SavedFormReader = ReturnType<typeof createSavedFormReader>;
