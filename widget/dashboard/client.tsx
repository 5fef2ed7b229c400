/**
 * The staff dashboard's page (/dashboard, proxy/dashboard/): its panels (Dashboard.tsx) drawn from
 * the proxy's figures, read and followed live by its model (dashboard-model.ts). English and
 * Spanish, by the page's `data-lang` (i18n/).
 */
import { render } from "preact";
import { createDashboardModel } from "./dashboard-model";
import { Dashboard } from "./Dashboard";
import { formatsFor } from "./format";
import { languageOf, panelWords } from "./i18n";
// oxlint-disable-next-line import/no-unassigned-import -- the stylesheet is built beside the script (vite.config.ts, dashboard)
import "./dashboard.css";

const main = document.getElementById("dashboard");
if (main) {
  const language = languageOf(main);
  const t = panelWords(language);
  const model = createDashboardModel(main.dataset.formToken ?? "", { search: location.search });
  document.title = `givekit · ${t.title}`;
  render(<Dashboard model={model} t={t} f={formatsFor(language)} />, main);
  void model.follow();
}
