/**
 * The staff dashboard's page (/dashboard, proxy/dashboard/): every panel drawn from the proxy's
 * figures (GET /dashboard/data.json, then /dashboard/live by server-sent events), the chart as
 * plain SVG made here. Text only (textContent): nothing the proxy sends is read as markup.
 * English and Spanish, by the page's `lang`.
 */
// oxlint-disable-next-line import/no-unassigned-import -- the stylesheet is built beside the script (vite.config.ts, dashboard)
import "./dashboard.css";
import {
  DASHBOARD_FORM_HEADER,
  VENUE_HOURS,
  type DashboardData,
  type Segment,
  type VenueState,
} from "../../contract/dashboard";

const WORDS = {
  en: {
    title: "How giving goes",
    period: "Period",
    periods: { today: "Today", "7d": "Last 7 days", "30d": "Last 30 days" },
    campaign: "Campaign",
    all: "All campaigns",
    giving: "Giving",
    room: "As the room display shows it",
    goal: "Goal",
    donors: "Donors",
    stale: "(last good figures)",
    inPeriod: "Through givekit in this period",
    gifts: "Gifts",
    raised: "Raised",
    average: "Average gift",
    monthly: "Monthly gifts",
    fee: "Covered the fee",
    declined: "Cards declined",
    perHour: "Gifts per hour",
    noGifts: "No gifts in this period yet.",
    funnel: "Where donors stop",
    step: "Step",
    reached: "Reached",
    left: "Left here",
    why: "Why, where the form knows",
    channels: "By channel",
    channel: "Channel",
    devices: "By device",
    device: "Device",
    shown: "Forms shown",
    sent: "Gifts sent",
    thanked: "Gifts thanked",
    finished: "Finished",
    health: "Health",
    store: "Store",
    ok: "answering",
    down: "not answering",
    unknown: "Gifts waiting for the reconciler",
    waiting: "Webhooks waiting",
    dead: "Webhooks given up",
    failing: "Failing webhook endpoints",
    defence: "Card-testing defence open now",
    none: "none",
    defencePanel: "Defence",
    asked: "Challenges asked",
    solved: "Challenges solved",
    solveP50: "Solve time, median",
    solveP95: "Solve time, slowest 5%",
    declinedNetwork: "Declined by the card network",
    scrutiny: "Scrutiny open now",
    breakers: "Breakers open now",
    venue: "This network (the venue's)",
    venueFor: "For",
    venueHours: (n: number) => (n === 1 ? "1 hour" : `${n} hours`),
    venueAllow: "Let this network through",
    venueConfirm: "Let it through anyway",
    venueEnd: "End now",
    venueAllowed: (until: string, by: string | null) =>
      `Let through the circuit breakers until ${until}${by ? `, by ${by}` : " (givekit defence allow)"}.`,
    venueHeld: (until: string, cards: number) =>
      `${cards === 1 ? "1 card" : `${cards} cards`} waiting at this network: its circuit breaker holds them (“Checking…”) until ${until}. Let it through to let its donors give.`,
    venueOthers: (clients: number, cards: number) =>
      clients === 0
        ? "No card waits at a circuit breaker."
        : `${cards === 1 ? "1 card" : `${cards} cards`} waiting at ${clients === 1 ? "one client" : `${clients} clients`} (not this network): givekit defence allow lets another network through.`,
    venueFailed: "Could not do that: ",
    heldNow: "People held now",
    heldFor: (people: number, longestS: number) =>
      people === 0 ? "none" : `${people}, the longest for ${longestS} s`,
    refusals: "Refused before the network",
    reason: "Reason",
    count: "Count",
    defenceHours: "The defence per hour",
    hour: "Hour",
    refused: "Refused",
    askedPerHour: "Challenges asked per hour",
    upstream: "Upstream answers",
    answer: "Call and answer",
    latencyP50: "Upstream time, median",
    latencyP95: "Upstream time, slowest 5%",
    upstreamHours: "The upstream per hour",
    answered: "Answered",
    failed: "Failed",
    unreachable: "Unreachable",
    unknownAnswer: "No usable answer",
    ms: (ms: number | null) => (ms === null ? "–" : ms >= 1000 ? `≤ ${ms / 1000} s` : `≤ ${ms} ms`),
    csv: "Download CSV",
    live: (time: string) => `Live, as of ${time}`,
    reconnecting: "Reconnecting…",
    steps: {
      shown: "Form shown",
      amount: "Gift chosen",
      details: "Details given",
      card: "Card entered",
      sent: "Gift sent",
      thanks: "Thank-you",
    } as Record<string, string>,
    reasons: {
      invalid_amount: "amount refused",
      invalid_name: "name refused",
      invalid_email: "e-mail refused",
      invalid_phone: "phone refused",
      invalid_address: "address refused",
      invalid_other: "a field refused",
      declined: "card declined",
      challenge_unsolved: "check not solved in time",
      upstream_error: "service error",
      closed: "closed the form",
    } as Record<string, string>,
    deviceNames: { phone: "Phone", larger: "Larger screen" } as Record<string, string>,
  },
  es: {
    title: "Cómo van los donativos",
    period: "Período",
    periods: { today: "Hoy", "7d": "Últimos 7 días", "30d": "Últimos 30 días" },
    campaign: "Campaña",
    all: "Todas las campañas",
    giving: "Donativos",
    room: "Como lo muestra la pantalla del salón",
    goal: "Meta",
    donors: "Donantes",
    stale: "(últimas cifras buenas)",
    inPeriod: "Por givekit en este período",
    gifts: "Donativos",
    raised: "Recaudado",
    average: "Donativo promedio",
    monthly: "Donativos mensuales",
    fee: "Cubrieron la comisión",
    declined: "Tarjetas rechazadas",
    perHour: "Donativos por hora",
    noGifts: "Aún no hay donativos en este período.",
    funnel: "Dónde se detienen los donantes",
    step: "Paso",
    reached: "Llegaron",
    left: "Salieron aquí",
    why: "Por qué, cuando el formulario lo sabe",
    channels: "Por canal",
    channel: "Canal",
    devices: "Por dispositivo",
    device: "Dispositivo",
    shown: "Formularios mostrados",
    sent: "Donativos enviados",
    thanked: "Donativos agradecidos",
    finished: "Terminaron",
    health: "Estado",
    store: "Base de datos",
    ok: "responde",
    down: "no responde",
    unknown: "Donativos esperando la conciliación",
    waiting: "Webhooks en espera",
    dead: "Webhooks abandonados",
    failing: "Destinos de webhooks con fallas",
    defence: "Defensa contra pruebas de tarjetas activa",
    none: "ninguno",
    defencePanel: "Defensa",
    asked: "Verificaciones pedidas",
    solved: "Verificaciones resueltas",
    solveP50: "Tiempo de resolución, mediana",
    solveP95: "Tiempo de resolución, el 5 % más lento",
    declinedNetwork: "Rechazadas por la red de tarjetas",
    scrutiny: "Vigilancia activa ahora",
    breakers: "Cortacircuitos abiertos ahora",
    venue: "Esta red (la del local)",
    venueFor: "Durante",
    venueHours: (n: number) => (n === 1 ? "1 hora" : `${n} horas`),
    venueAllow: "Dejar pasar esta red",
    venueConfirm: "Dejarla pasar de todos modos",
    venueEnd: "Terminar ahora",
    venueAllowed: (until: string, by: string | null) =>
      `Pasa los cortacircuitos hasta las ${until}${by ? `, por ${by}` : " (givekit defence allow)"}.`,
    venueHeld: (until: string, cards: number) =>
      `${cards === 1 ? "1 tarjeta esperando" : `${cards} tarjetas esperando`} en esta red: su cortacircuitos las retiene («Comprobando…») hasta las ${until}. Déjela pasar para que sus donantes donen.`,
    venueOthers: (clients: number, cards: number) =>
      clients === 0
        ? "Ninguna tarjeta espera en un cortacircuitos."
        : `${cards === 1 ? "1 tarjeta esperando" : `${cards} tarjetas esperando`} en ${clients === 1 ? "un cliente" : `${clients} clientes`} (no esta red): givekit defence allow deja pasar otra red.`,
    venueFailed: "No se pudo: ",
    heldNow: "Personas retenidas ahora",
    heldFor: (people: number, longestS: number) =>
      people === 0 ? "ninguna" : `${people}, la que más lleva ${longestS} s`,
    refusals: "Rechazadas antes de la red",
    reason: "Motivo",
    count: "Cantidad",
    defenceHours: "La defensa por hora",
    hour: "Hora",
    refused: "Rechazadas",
    askedPerHour: "Verificaciones pedidas por hora",
    upstream: "Respuestas del servicio",
    answer: "Llamada y respuesta",
    latencyP50: "Tiempo del servicio, mediana",
    latencyP95: "Tiempo del servicio, el 5 % más lento",
    upstreamHours: "El servicio por hora",
    answered: "Respondidas",
    failed: "Fallidas",
    unreachable: "Sin conexión",
    unknownAnswer: "Sin respuesta útil",
    ms: (ms: number | null) => (ms === null ? "–" : ms >= 1000 ? `≤ ${ms / 1000} s` : `≤ ${ms} ms`),
    csv: "Descargar CSV",
    live: (time: string) => `En vivo, a las ${time}`,
    reconnecting: "Reconectando…",
    steps: {
      shown: "Formulario mostrado",
      amount: "Monto elegido",
      details: "Datos dados",
      card: "Tarjeta ingresada",
      sent: "Donativo enviado",
      thanks: "Agradecimiento",
    } as Record<string, string>,
    reasons: {
      invalid_amount: "monto rechazado",
      invalid_name: "nombre rechazado",
      invalid_email: "correo rechazado",
      invalid_phone: "teléfono rechazado",
      invalid_address: "dirección rechazada",
      invalid_other: "un campo rechazado",
      declined: "tarjeta rechazada",
      challenge_unsolved: "verificación no resuelta a tiempo",
      upstream_error: "error del servicio",
      closed: "cerró el formulario",
    } as Record<string, string>,
    deviceNames: { phone: "Teléfono", larger: "Pantalla más grande" } as Record<string, string>,
  },
};

const SVG = "http://www.w3.org/2000/svg";
const main = document.getElementById("dashboard")!;
const locale = main.dataset.lang === "es" ? "es" : "en";
const words = WORDS[locale];
const tag = locale === "es" ? "es-US" : "en-US";
const money = new Intl.NumberFormat(tag, { style: "currency", currency: "USD" });
const whole = new Intl.NumberFormat(tag);
const percent = new Intl.NumberFormat(tag, { style: "percent", maximumFractionDigits: 1 });
const clock = new Intl.DateTimeFormat(tag, { hour: "numeric", minute: "2-digit", second: "2-digit" });
const hourLabel = new Intl.DateTimeFormat(tag, { hour: "numeric" });

/** An amount ("18240.00") in its currency, as the room display's figures come. */
function amount(value: string, currency: string): string {
  return new Intl.NumberFormat(tag, { style: "currency", currency }).format(Number(value));
}

/** An element with text and a class, children appended. */
function el<K extends keyof HTMLElementTagNameMap>(
  name: K,
  text?: string | null,
  className?: string,
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(name);
  if (text !== null && text !== undefined) node.textContent = text;
  if (className) node.className = className;
  node.append(...children);
  return node;
}

function svg(name: string, attributes: Record<string, string | number>, text?: string): SVGElement {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A table: its caption, head and rows, every cell text. A `stacked` one becomes a card per row in
 * a narrow panel, each figure beside its column's name (dashboard.css): nothing to scroll sideways.
 */
function table(caption: string, head: string[], rows: string[][], stacked = false): HTMLElement {
  const thead = el("thead", null, undefined, el("tr", null, undefined, ...head.map((h) => el("th", h))));
  for (const th of thead.querySelectorAll("th")) th.scope = "col";
  const cellOf = (text: string, column: number) => {
    if (column === 0) return rowHead(text);
    const td = el("td", text);
    if (stacked) td.dataset.label = head[column] ?? "";
    return td;
  };
  const body = el(
    "tbody",
    null,
    undefined,
    ...rows.map((row) => el("tr", null, undefined, ...row.map(cellOf))),
  );
  const tableEl = el("table", null, stacked ? "stacked" : undefined, el("caption", caption), thead, body);
  // Drawn as blocks in a narrow panel, it keeps its table's roles for a screen reader (Safari drops
  // a table's semantics with its display; Chromium keeps them).
  if (stacked) {
    tableEl.setAttribute("role", "table");
    for (const [selector, role] of [
      ["tr", "row"],
      ["thead th", "columnheader"],
      ["tbody th", "rowheader"],
      ["td", "cell"],
      ["thead, tbody", "rowgroup"],
    ] as const)
      for (const node of tableEl.querySelectorAll(selector)) node.setAttribute("role", role);
  }
  // A wide table scrolls inside its panel: the region takes the keyboard's focus to scroll it.
  const region = el("div", null, "scroll", tableEl);
  region.tabIndex = 0;
  region.setAttribute("role", "region");
  region.setAttribute("aria-label", caption);
  return region;
}

function rowHead(text: string): HTMLElement {
  const th = el("th", text);
  th.scope = "row";
  return th;
}

/** The CSV link of one table for the view on screen. */
function csvLink(name: string, params: URLSearchParams): HTMLElement {
  const link = el("a", words.csv, "csv");
  link.href = `/dashboard/${name}.csv?${params}`;
  link.setAttribute("download", "");
  return link;
}

/** Gifts per hour as bars, the hours along the bottom: a chart the page draws itself. */
function chart(data: DashboardData): Node {
  if (data.giving.gifts === 0) return el("p", words.noGifts, "empty");
  return bars(
    words.perHour,
    data.giving.perHour.map((h) => ({ hour: h.hour, value: h.gifts })),
  );
}

/** A count per hour as bars, the hours along the bottom. */
function bars(title: string, hours: { hour: string; value: number }[]): Node {
  const width = 720;
  const height = 200;
  const top = Math.max(0, ...hours.map((h) => h.value));
  const step = width / hours.length;
  const figure = svg("svg", { viewBox: `0 0 ${width} ${height + 24}`, role: "img", class: "chart" });
  figure.append(
    svg(
      "title",
      {},
      `${title}: ${hours.map((h) => `${hourLabel.format(new Date(h.hour))} ${h.value}`).join(", ")}`,
    ),
  );
  hours.forEach((hour, index) => {
    const barHeight = top === 0 ? 0 : Math.round((hour.value / top) * (height - 16));
    figure.append(
      svg("rect", {
        x: (index * step + step * 0.1).toFixed(1),
        y: height - barHeight,
        width: (step * 0.8).toFixed(1),
        height: barHeight,
        class: "bar",
      }),
    );
    // A label every few hours, so they never overlap at any width.
    if (index % Math.ceil(hours.length / 12) === 0)
      figure.append(
        svg(
          "text",
          { x: (index * step + step / 2).toFixed(1), y: height + 18, "text-anchor": "middle", class: "axis" },
          hourLabel.format(new Date(hour.hour)),
        ),
      );
  });
  return figure;
}

function figureBox(label: string, value: string): HTMLElement {
  return el("div", null, "figure", el("dt", label), el("dd", value));
}

/** A list of labelled figures (a panel's "figures" or its "facts"). */
function figureList(className: "figures" | "facts", ...boxes: HTMLElement[]): HTMLElement {
  return el("dl", null, className, ...boxes);
}

/** A panel of the dashboard under its heading; "panel wide" spans the page. */
function panel(className: "panel" | "panel wide", title: string, ...children: Node[]): HTMLElement {
  return el("section", null, className, el("h2", title), ...children);
}

/** Names of what is open now, or the word for none. */
function orNone(names: string[]): string {
  return names.join(", ") || words.none;
}

/** A channel's or device's forms shown, gifts sent, thanked and declined (the proxy's own counts), and the share finished. */
function segmentRows(list: Segment[], names: Record<string, string> = {}): string[][] {
  return list.map((s) => [
    names[s.name] ?? s.name,
    whole.format(s.shown),
    whole.format(s.sent),
    whole.format(s.thanked),
    whole.format(s.declined),
    percent.format(s.shareFinished),
  ]);
}

/**
 * The venue button: made once and moved into each drawing of the defence panel, so a choice or
 * a question waiting for its confirmation survives the live figures.
 */
const venueText = el("p", null, "venue-state");
const venueHoursSelect = el("select");
venueHoursSelect.id = "venue-hours";
for (let hours = VENUE_HOURS.min; hours <= VENUE_HOURS.max; hours++)
  venueHoursSelect.append(new Option(words.venueHours(hours), String(hours)));
venueHoursSelect.value = "6";
const venueHoursLabel = el("label", words.venueFor);
venueHoursLabel.htmlFor = venueHoursSelect.id;
const venueAllow = el("button", words.venueAllow);
venueAllow.type = "button";
const venueEnd = el("button", words.venueEnd);
venueEnd.type = "button";
const venueQuestion = el("p", null, "venue-question");
venueQuestion.setAttribute("role", "alert");
const venueConfirm = el("button", words.venueConfirm);
venueConfirm.type = "button";
const venueAsk = el("div", null, "venue-ask", venueQuestion, venueConfirm);
const venueForm = el("div", null, "control", venueHoursLabel, venueHoursSelect, venueAllow);
const venueBox = el("div", null, "venue", el("h3", words.venue), venueText, venueForm, venueEnd, venueAsk);
venueAsk.hidden = true;

const at = (iso: string) => clock.format(new Date(iso));

function drawVenue(venue: VenueState): void {
  venueText.textContent = venue.allowed
    ? words.venueAllowed(at(venue.allowed.until), venue.allowed.by)
    : venue.heldUntil
      ? words.venueHeld(at(venue.heldUntil), venue.cardsHeld)
      : words.venueOthers(venue.clientsHeld, venue.cardsHeldElsewhere);
  venueForm.hidden = venue.allowed !== null;
  venueEnd.hidden = venue.allowed === null;
  if (venue.allowed) venueAsk.hidden = true;
}

/** Sends one of the venue button's actions from this page (its form token), and shows the answer. */
async function venueAction(path: string, body: unknown): Promise<void> {
  for (const button of [venueAllow, venueEnd, venueConfirm]) button.disabled = true;
  try {
    const res = await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        [DASHBOARD_FORM_HEADER]: main.dataset.formToken ?? "",
      },
      body: JSON.stringify(body),
    });
    const answer = (await res.json().catch(() => ({}))) as {
      venue?: VenueState;
      code?: string;
      detail?: string;
    };
    if (res.ok && answer.venue) {
      venueAsk.hidden = true;
      drawVenue(answer.venue);
    } else if (answer.code === "confirmation_required") {
      venueQuestion.textContent = answer.detail ?? "";
      venueAsk.hidden = false;
    } else {
      venueAsk.hidden = true;
      venueText.textContent = `${words.venueFailed}${answer.detail ?? res.statusText}`;
    }
  } finally {
    for (const button of [venueAllow, venueEnd, venueConfirm]) button.disabled = false;
  }
}

venueAllow.addEventListener(
  "click",
  () => void venueAction("/dashboard/venue", { hours: Number(venueHoursSelect.value) }),
);
venueConfirm.addEventListener(
  "click",
  () => void venueAction("/dashboard/venue", { hours: Number(venueHoursSelect.value), confirm: true }),
);
venueEnd.addEventListener("click", () => void venueAction("/dashboard/venue/end", {}));

const controls = el("form", null, "controls");
const periodSelect = el("select");
const campaignSelect = el("select");
const status = document.getElementById("status") ?? el("p");
const panels = el("div", null, "panels");

function labelled(text: string, select: HTMLSelectElement, id: string): HTMLElement {
  select.id = id;
  const label = el("label", text);
  label.htmlFor = id;
  return el("div", null, "control", label, select);
}

function view(): URLSearchParams {
  const params = new URLSearchParams({ period: periodSelect.value || "today" });
  if (campaignSelect.value) params.set("campaign", campaignSelect.value);
  return params;
}

function draw(data: DashboardData): void {
  if (campaignSelect.options.length === 0) {
    campaignSelect.append(new Option(words.all, ""), ...data.campaigns.map((c) => new Option(c, c)));
    campaignSelect.value = data.campaign ?? "";
  }
  const params = view();
  const g = data.giving;
  const giving = panel(
    "panel wide",
    words.giving,
    el("h3", words.room),
    table(
      words.room,
      [words.campaign, words.raised, words.goal, words.donors],
      g.room.map((r) => [
        r.campaign,
        r.progress
          ? `${amount(r.progress.raised, r.progress.currency)}${r.failing ? ` ${words.stale}` : ""}`
          : "–",
        r.progress?.goal ? amount(r.progress.goal, r.progress.currency) : "–",
        r.progress ? whole.format(r.progress.donors) : "–",
      ]),
    ),
    csvLink("room", params),
    el("h3", words.inPeriod),
    figureList(
      "figures",
      figureBox(words.gifts, whole.format(g.gifts)),
      figureBox(words.raised, money.format(g.cents / 100)),
      figureBox(words.average, money.format(g.averageCents / 100)),
      figureBox(words.monthly, percent.format(g.recurringShare)),
      figureBox(words.fee, percent.format(g.feeCoveredShare)),
      figureBox(words.declined, whole.format(g.declined)),
    ),
    el("h3", words.perHour),
    chart(data),
    csvLink("giving", params),
  );
  const funnel = panel(
    "panel wide",
    words.funnel,
    table(
      words.funnel,
      [words.step, words.reached, words.left, words.why],
      data.funnel.map((s) => [
        words.steps[s.step] ?? s.step,
        whole.format(s.reached),
        s.reached === 0 ? "–" : `${whole.format(s.left)} (${percent.format(s.shareLeft)})`,
        s.reasons.map((r) => `${words.reasons[r.reason] ?? r.reason}: ${whole.format(r.count)}`).join(", "),
      ]),
    ),
    csvLink("funnel", params),
  );
  const segmentHead = (first: string) => [
    first,
    words.shown,
    words.sent,
    words.thanked,
    words.declined,
    words.finished,
  ];
  const channels = panel(
    "panel",
    words.channels,
    table(words.channels, segmentHead(words.channel), segmentRows(data.channels), true),
    csvLink("channels", params),
  );
  const devices = panel(
    "panel",
    words.devices,
    table(words.devices, segmentHead(words.device), segmentRows(data.devices, words.deviceNames), true),
    csvLink("devices", params),
  );
  const h = data.health;
  const health = panel(
    "panel",
    words.health,
    figureList(
      "facts",
      figureBox(words.store, h.store ? words.ok : words.down),
      figureBox(words.unknown, whole.format(h.unknownOutcomes)),
      figureBox(words.waiting, whole.format(h.webhooksWaiting)),
      figureBox(words.dead, whole.format(h.webhooksDead)),
      figureBox(words.failing, orNone(h.webhooksFailing.map((f) => f.endpoint))),
      figureBox(words.defence, orNone(h.defenceOpen.map((d) => `${d.scope}: ${d.signal}`))),
      figureBox(words.latencyP50, words.ms(h.upstream.latencyMs.p50)),
      figureBox(words.latencyP95, words.ms(h.upstream.latencyMs.p95)),
    ),
    table(
      words.upstream,
      [words.answer, words.count],
      h.upstream.answers.map((a) => [a.label, whole.format(a.count)]),
    ),
    table(
      words.upstreamHours,
      [
        words.hour,
        words.answered,
        words.refused,
        words.failed,
        words.unreachable,
        words.unknownAnswer,
        words.latencyP50,
        words.latencyP95,
      ],
      h.upstream.perHour
        .filter((hour) => Object.keys(hour.answers).length > 0)
        .map((hour) => [
          hourLabel.format(new Date(hour.hour)),
          ...["answered", "refused", "failed", "unreachable", "unknown"].map((k) =>
            whole.format(hour.answers[k] ?? 0),
          ),
          words.ms(hour.latencyMs.p50),
          words.ms(hour.latencyMs.p95),
        ]),
    ),
    csvLink("upstream", params),
  );
  const d = data.defence;
  const defence = panel(
    "panel wide",
    words.defencePanel,
    figureList(
      "figures",
      figureBox(words.asked, whole.format(d.challengesAsked)),
      figureBox(words.solved, whole.format(d.challengesSolved)),
      figureBox(words.solveP50, words.ms(d.solveMs.p50)),
      figureBox(words.solveP95, words.ms(d.solveMs.p95)),
      figureBox(words.declinedNetwork, whole.format(d.declined)),
      figureBox(words.scrutiny, orNone(d.scrutinyOpen.map((o) => `${o.scope}: ${o.signal}`))),
      figureBox(words.breakers, orNone(d.breakersOpen.map((b) => b.name))),
      figureBox(words.heldNow, words.heldFor(d.heldNow.people, d.heldNow.longestS)),
    ),
    ...(d.venue ? [venueBox] : []),
    el("h3", words.askedPerHour),
    bars(
      words.askedPerHour,
      d.perHour.map((hour) => ({ hour: hour.hour, value: hour.asked })),
    ),
    table(
      words.refusals,
      [words.reason, words.count],
      d.refusals.map((r) => [r.reason, whole.format(r.count)]),
    ),
    csvLink("refusals", params),
    table(
      words.defenceHours,
      [words.hour, words.asked, words.solved, words.refused, words.declinedNetwork],
      d.perHour
        .filter((hour) => hour.asked + hour.solved + hour.refused + hour.declined > 0)
        .map((hour) => [
          hourLabel.format(new Date(hour.hour)),
          whole.format(hour.asked),
          whole.format(hour.solved),
          whole.format(hour.refused),
          whole.format(hour.declined),
        ]),
    ),
    csvLink("defence", params),
  );
  if (d.venue) drawVenue(d.venue);
  panels.replaceChildren(giving, funnel, channels, devices, defence, health);
  status.textContent = words.live(clock.format(new Date(data.at)));
}

let stream: EventSource | null = null;

/** Reads the view once, then follows it live; a dropped stream says so and the browser reopens it. */
async function follow(): Promise<void> {
  stream?.close();
  const params = view();
  // The address keeps the view (and a language asked for), so a reload shows the same.
  const shown = new URLSearchParams(params);
  const lang = new URLSearchParams(location.search).get("lang");
  if (lang) shown.set("lang", lang);
  history.replaceState(null, "", `?${shown}`);
  const first = await fetch(`/dashboard/data.json?${params}`, { credentials: "same-origin" });
  if (first.ok) draw((await first.json()) as DashboardData);
  stream = new EventSource(`/dashboard/live?${params}`);
  stream.addEventListener("figures", (event) =>
    draw(JSON.parse((event as MessageEvent<string>).data) as DashboardData),
  );
  stream.addEventListener("error", () => {
    status.textContent = words.reconnecting;
  });
}

const asked = new URLSearchParams(location.search);
periodSelect.append(...(["today", "7d", "30d"] as const).map((p) => new Option(words.periods[p], p)));
periodSelect.value = asked.get("period") ?? "today";
if (asked.get("campaign")) campaignSelect.append(new Option(asked.get("campaign")!, asked.get("campaign")!));
controls.append(
  labelled(words.period, periodSelect, "period"),
  labelled(words.campaign, campaignSelect, "campaign"),
);
for (const select of [periodSelect, campaignSelect]) select.addEventListener("change", () => void follow());
document.title = `givekit · ${words.title}`;
main.replaceChildren(el("h1", words.title), controls, status, panels);
void follow();
