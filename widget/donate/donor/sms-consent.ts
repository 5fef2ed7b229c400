import type { Messages } from "../../i18n";

/** The SMS disclosure exactly as shown beside the box (options/DonorOptions.tsx), as one string: what the consent record keeps. */
export function smsConsentText(t: Messages, programName: string | null): string {
  const d = t.donateLater;
  return `${d.smsDisclosure(programName ?? d.smsProgramFallback)} ${t.common.terms} ${t.common.privacy}`;
}
