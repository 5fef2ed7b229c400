/**
 * The form token a dashboard page (the dashboard's or the designer's) gives a signed-in staff
 * member's script, which sends it back with every action (contract/dashboard.ts
 * DASHBOARD_FORM_HEADER); empty when the page is not a signed-in staff member's.
 *
 * @example
 * formTokenIn(await (await app.request("/dashboard/forms", { headers: { Cookie } })).text());
 */
export function formTokenIn(page: string): string {
  return /data-form-token="([^"]*)"/.exec(page)?.[1] ?? "";
}
