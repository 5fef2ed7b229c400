/**
 * What the room display says, in each language givekit speaks: its page (proxy/campaign/display-page.ts,
 * the first eight) and its script (widget/display/client.ts, the rest). `text` is HTML: the
 * keyword and short code it is given are escaped by the page.
 */
import { ANONYMOUS } from "./gala";
import { INTL_TAGS } from "./locale-traits";
import type { Locale } from "./locales";

export interface DisplayWords {
  text: (keyword: string, shortcode: string) => string;
  scan: string;
  latest: string;
  teams: string;
  fundraisers: string;
  bar: string;
  reached: string;
  loading: string;
  donors: (count: number) => string;
  ofGoal: (goal: string) => string;
  anonymous: string;
  reconnecting: (age: string) => string;
  empty: string;
}

/** "12 donors" by the language's plural rules. */
function count(
  locale: Locale,
  forms: (n: string) => Partial<Record<Intl.LDMLPluralRule, string>> & { other: string },
) {
  return (value: number) => {
    const tag = INTL_TAGS[locale] ?? locale;
    const all = forms(value.toLocaleString(tag));
    return all[new Intl.PluralRules(tag).select(value)] ?? all.other;
  };
}

export const DISPLAY_WORDS: Record<Locale, DisplayWords> = {
  en: {
    text: (keyword, shortcode) => `Text <strong>${keyword}</strong> to <strong>${shortcode}</strong>`,
    scan: "or scan to give",
    latest: "Latest gifts",
    teams: "Top teams",
    fundraisers: "Top fundraisers",
    bar: "Progress toward the goal",
    reached: "Goal reached! Thank you!",
    loading: "Loading…",
    donors: count("en", (n) => ({ one: `${n} donor`, other: `${n} donors` })),
    ofGoal: (goal) => `of ${goal}`,
    anonymous: ANONYMOUS,
    reconnecting: (age) => `Reconnecting… these figures are from ${age}`,
    empty: "Be the first to give!",
  },
  es: {
    text: (keyword, shortcode) => `Envíe <strong>${keyword}</strong> al <strong>${shortcode}</strong>`,
    scan: "o escanee para donar",
    latest: "Últimos donativos",
    teams: "Equipos destacados",
    fundraisers: "Recaudadores destacados",
    bar: "Avance hacia la meta",
    reached: "¡Meta alcanzada! ¡Gracias!",
    loading: "Cargando…",
    donors: count("es", (n) => ({ one: `${n} donante`, other: `${n} donantes` })),
    ofGoal: (goal) => `de ${goal}`,
    anonymous: "Anónimo",
    reconnecting: (age) => `Reconectando… estas cifras son de ${age}`,
    empty: "¡Sea la primera persona en donar!",
  },
  fr: {
    text: (keyword, shortcode) => `Envoyez <strong>${keyword}</strong> au <strong>${shortcode}</strong>`,
    scan: "ou balayez pour donner",
    latest: "Derniers dons",
    teams: "Meilleures équipes",
    fundraisers: "Meilleurs collecteurs",
    bar: "Progression vers l'objectif",
    reached: "Objectif atteint ! Merci !",
    loading: "Chargement…",
    donors: count("fr", (n) => ({ one: `${n} donateur`, other: `${n} donateurs` })),
    ofGoal: (goal) => `sur ${goal}`,
    anonymous: "Anonyme",
    reconnecting: (age) => `Reconnexion… ces chiffres datent de ${age}`,
    empty: "Soyez la première personne à donner !",
  },
  "pt-BR": {
    text: (keyword, shortcode) => `Envie <strong>${keyword}</strong> para <strong>${shortcode}</strong>`,
    scan: "ou escaneie para doar",
    latest: "Doações recentes",
    teams: "Melhores equipes",
    fundraisers: "Melhores arrecadadores",
    bar: "Progresso rumo à meta",
    reached: "Meta alcançada! Obrigado!",
    loading: "Carregando…",
    donors: count("pt-BR", (n) => ({ one: `${n} doador`, other: `${n} doadores` })),
    ofGoal: (goal) => `de ${goal}`,
    anonymous: "Anônimo",
    reconnecting: (age) => `Reconectando… estes números são de ${age}`,
    empty: "Seja a primeira pessoa a doar!",
  },
  "zh-Hans": {
    text: (keyword, shortcode) => `发送 <strong>${keyword}</strong> 至 <strong>${shortcode}</strong>`,
    scan: "或扫码捐款",
    latest: "最新捐款",
    teams: "团队排行",
    fundraisers: "筹款人排行",
    bar: "目标完成进度",
    reached: "目标达成！谢谢大家！",
    loading: "加载中…",
    donors: count("zh-Hans", (n) => ({ other: `${n} 位捐款人` })),
    ofGoal: (goal) => `目标 ${goal}`,
    anonymous: "匿名",
    reconnecting: (age) => `正在重新连接… 这些数据来自${age}`,
    empty: "成为第一位捐款人吧！",
  },
  "zh-Hant": {
    text: (keyword, shortcode) => `傳送 <strong>${keyword}</strong> 至 <strong>${shortcode}</strong>`,
    scan: "或掃描捐款",
    latest: "最新捐款",
    teams: "團隊排行",
    fundraisers: "募款人排行",
    bar: "目標達成進度",
    reached: "目標達成！謝謝大家！",
    loading: "載入中…",
    donors: count("zh-Hant", (n) => ({ other: `${n} 位捐款人` })),
    ofGoal: (goal) => `目標 ${goal}`,
    anonymous: "匿名",
    reconnecting: (age) => `重新連線中… 這些數字來自${age}`,
    empty: "成為第一位捐款人吧！",
  },
  vi: {
    text: (keyword, shortcode) => `Nhắn <strong>${keyword}</strong> đến <strong>${shortcode}</strong>`,
    scan: "hoặc quét mã để quyên góp",
    latest: "Các khoản quyên góp mới nhất",
    teams: "Các đội dẫn đầu",
    fundraisers: "Người gây quỹ dẫn đầu",
    bar: "Tiến độ đạt mục tiêu",
    reached: "Đã đạt mục tiêu! Xin cảm ơn!",
    loading: "Đang tải…",
    donors: count("vi", (n) => ({ other: `${n} nhà hảo tâm` })),
    ofGoal: (goal) => `trên ${goal}`,
    anonymous: "Ẩn danh",
    reconnecting: (age) => `Đang kết nối lại… số liệu từ ${age}`,
    empty: "Hãy là người đầu tiên quyên góp!",
  },
  tl: {
    text: (keyword, shortcode) => `I-text ang <strong>${keyword}</strong> sa <strong>${shortcode}</strong>`,
    scan: "o i-scan para magbigay",
    latest: "Mga pinakabagong donasyon",
    teams: "Mga nangungunang koponan",
    fundraisers: "Mga nangungunang fundraiser",
    bar: "Pag-usad patungo sa layunin",
    reached: "Naabot ang layunin! Salamat!",
    loading: "Naglo-load…",
    donors: count("tl", (n) => ({ other: `${n} donor ang nagbigay` })),
    ofGoal: (goal) => `sa ${goal}`,
    anonymous: "Hindi nagpakilala",
    reconnecting: (age) => `Kumokonekta muli… mula ${age} ang mga numerong ito`,
    empty: "Maging unang magbigay!",
  },
  ko: {
    text: (keyword, shortcode) =>
      `<strong>${shortcode}</strong>번으로 <strong>${keyword}</strong> 문자 보내기`,
    scan: "또는 스캔해서 기부하기",
    latest: "최근 기부",
    teams: "상위 팀",
    fundraisers: "상위 모금자",
    bar: "목표 달성률",
    reached: "목표 달성! 감사합니다!",
    loading: "불러오는 중…",
    donors: count("ko", (n) => ({ other: `기부자 ${n}명` })),
    ofGoal: (goal) => `목표 ${goal}`,
    anonymous: "익명",
    reconnecting: (age) => `다시 연결 중… ${age} 기준 수치`,
    empty: "첫 번째 기부자가 되어 주세요!",
  },
  ar: {
    text: (keyword, shortcode) => `أرسل <strong>${keyword}</strong> إلى <strong>${shortcode}</strong>`,
    scan: "أو امسح الرمز للتبرع",
    latest: "أحدث التبرعات",
    teams: "أفضل الفرق",
    fundraisers: "أفضل جامعي التبرعات",
    bar: "التقدّم نحو الهدف",
    reached: "تحقّق الهدف! شكرًا لكم!",
    loading: "جارٍ التحميل…",
    donors: count("ar", (n) => ({
      zero: "لا متبرعين",
      one: "متبرع واحد",
      two: "متبرعان",
      few: `${n} متبرعين`,
      many: `${n} متبرعًا`,
      other: `${n} متبرع`,
    })),
    ofGoal: (goal) => `من ${goal}`,
    anonymous: "مجهول",
    reconnecting: (age) => `جارٍ إعادة الاتصال… هذه الأرقام من ${age}`,
    empty: "كن أول من يتبرع!",
  },
  ru: {
    text: (keyword, shortcode) =>
      `Отправьте <strong>${keyword}</strong> на номер <strong>${shortcode}</strong>`,
    scan: "или отсканируйте, чтобы пожертвовать",
    latest: "Последние пожертвования",
    teams: "Лучшие команды",
    fundraisers: "Лучшие сборщики",
    bar: "Продвижение к цели",
    reached: "Цель достигнута! Спасибо!",
    loading: "Загрузка…",
    donors: count("ru", (n) => ({
      one: `${n} жертвователь`,
      few: `${n} жертвователя`,
      many: `${n} жертвователей`,
      other: `${n} жертвователя`,
    })),
    ofGoal: (goal) => `из ${goal}`,
    anonymous: "Аноним",
    reconnecting: (age) => `Переподключение… данные на ${age}`,
    empty: "Станьте первым, кто сделает пожертвование!",
  },
  ht: {
    text: (keyword, shortcode) => `Voye <strong>${keyword}</strong> bay <strong>${shortcode}</strong>`,
    scan: "oswa eskane pou bay",
    latest: "Dènye don yo",
    teams: "Pi bon ekip yo",
    fundraisers: "Pi bon moun k ap ranmase lajan yo",
    bar: "Pwogrè pou rive nan objektif la",
    reached: "Nou rive nan objektif la! Mèsi!",
    loading: "N ap chaje…",
    donors: count("ht", (n) => ({ other: `${n} donatè` })),
    ofGoal: (goal) => `sou ${goal}`,
    anonymous: "Anonim",
    reconnecting: (age) => `N ap rekonekte… chif sa yo soti ${age}`,
    empty: "Se ou ki ka premye moun ki bay!",
  },
};
