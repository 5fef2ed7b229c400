/**
 * The sandbox's fixture: the accounts, keywords, forms, fundraisers, teams and lists it
 * starts with. Validated strictly, so a typo stops the sandbox with the field's path.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as z from "zod/mini";
import { AMOUNT_PATTERN, KEYWORD_PATTERN, SHORTCODE_PATTERN, isReservedKeyword } from "../contract/patterns";
import { UPSTREAM_ID_PATTERN } from "../contract/upstream";

/**
 * The demo fixture: Hope Shelter and River Trust. npm start, the tests, the benchmark and the
 * size check all read it (and its tokens) with loadFixtureFile, as the sandbox does.
 */
export const DEMO_FIXTURE_PATH = fileURLToPath(new URL("fixtures/demo.json", import.meta.url));

/** Fundraiser ids the sandbox makes itself; a fixture may not use these prefixes. */
export const ROOT_FUNDRAISER_PREFIX = "npo-";
export const HIDDEN_CAPTAIN_PREFIX = "captain-";

const Id = z.union([
  z.string().check(z.regex(UPSTREAM_ID_PATTERN, "An id is 1 to 64 letters, digits, '_', '.' or '-'.")),
  z.int().check(z.gte(0)),
]);
const Name = z.string().check(z.minLength(1), z.maxLength(200));

const FormSchema = z.strictObject({
  id: Id,
  name: Name,
  default: z.optional(z.boolean()),
});

const KeywordSchema = z.strictObject({
  id: Id,
  shortcode: z.string().check(z.regex(SHORTCODE_PATTERN, "A shortcode is 4 to 6 digits.")),
  keyword: z.string().check(
    z.regex(KEYWORD_PATTERN, "A keyword is 3 to 15 letters and digits."),
    z.refine((value) => !isReservedKeyword(value), "HELP, GIVE and STOP are reserved."),
  ),
  peer_fundraising: z.boolean(),
  event_id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  event_type: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  forms: z.array(FormSchema).check(z.minLength(1, "A keyword needs at least one form.")),
});

const FundraiserSchema = z.strictObject({
  id: Id,
  keyword_id: Id,
  name: Name,
  team_id: z.optional(z.nullable(Id)),
});

const TeamSchema = z.strictObject({
  id: Id,
  keyword_id: Id,
  name: Name,
  captain_id: z.optional(z.nullable(Id)),
  /** The team's fundraising goal, a decimal string ("2000.00"); the teams endpoint gives it back. */
  fundraising_goal: z.optional(z.nullable(z.string().check(z.regex(AMOUNT_PATTERN)))),
});

const AccountSchema = z.strictObject({
  name: Name,
  private_token: z.string().check(z.minLength(8), z.maxLength(128), z.regex(/^[\x21-\x7e]+$/)),
  public_token: z.string().check(z.minLength(8), z.maxLength(128), z.regex(/^[\x21-\x7e]+$/)),
  keywords: z.array(KeywordSchema),
  fundraisers: z._default(z.array(FundraiserSchema), []),
  teams: z._default(z.array(TeamSchema), []),
  lists: z._default(z.array(z.string().check(z.minLength(1), z.maxLength(100))), []),
});

/** The fixture file as written (ids may be strings or integers). */
export const FixtureSchema = z.strictObject({
  accounts: z.array(AccountSchema).check(z.minLength(1, "A fixture needs at least one account.")),
});

export interface FixtureForm {
  id: string;
  name: string;
  default: boolean;
}
export interface FixtureKeyword {
  id: string;
  shortcode: string;
  keyword: string;
  peerFundraising: boolean;
  eventId: string | null;
  eventType: string | null;
  forms: FixtureForm[];
}
export interface FixtureFundraiser {
  id: string;
  keywordId: string;
  name: string;
  teamId: string | null;
}
export interface FixtureTeam {
  id: string;
  keywordId: string;
  name: string;
  captainId: string | null;
  goal: string | null;
}
export interface FixtureAccount {
  name: string;
  privateToken: string;
  publicToken: string;
  keywords: FixtureKeyword[];
  fundraisers: FixtureFundraiser[];
  teams: FixtureTeam[];
  lists: string[];
}
/** A validated fixture with every id as a string. */
export interface Fixture {
  accounts: FixtureAccount[];
}

/** A fixture that cannot be used; the message names the field, e.g. `accounts[0].keywords[1].shortcode`. */
export class FixtureError extends Error {
  override name = "FixtureError";
}

type PathPart = string | number | symbol;

/** ["accounts", 0, "keywords", 1, "shortcode"] → "accounts[0].keywords[1].shortcode" */
export function formatPath(path: readonly PathPart[]): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else text += text ? `.${String(part)}` : String(part);
  }
  return text || "(root)";
}

/**
 * Validates a fixture value and its cross-references.
 *
 * @example
 * const fixture = parseFixture(JSON.parse(text), "sandbox/fixtures/demo.json");
 */
export function parseFixture(value: unknown, source = "fixture"): Fixture {
  const parsed = FixtureSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path =
      issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : (issue.path as PathPart[]);
    const message = issue.code === "unrecognized_keys" ? "unknown field" : issue.message;
    throw new FixtureError(`${source}: ${formatPath(path)}: ${message}`);
  }
  const fixture: Fixture = {
    accounts: parsed.data.accounts.map((account) => ({
      name: account.name,
      privateToken: account.private_token,
      publicToken: account.public_token,
      keywords: account.keywords.map((keyword) => ({
        id: String(keyword.id),
        shortcode: keyword.shortcode,
        keyword: keyword.keyword,
        peerFundraising: keyword.peer_fundraising,
        eventId: keyword.event_id ?? null,
        eventType: keyword.event_type ?? null,
        forms: keyword.forms.map((form) => ({
          id: String(form.id),
          name: form.name,
          default: form.default ?? false,
        })),
      })),
      fundraisers: account.fundraisers.map((fundraiser) => ({
        id: String(fundraiser.id),
        keywordId: String(fundraiser.keyword_id),
        name: fundraiser.name,
        teamId:
          fundraiser.team_id === undefined || fundraiser.team_id === null ? null : String(fundraiser.team_id),
      })),
      teams: account.teams.map((team) => ({
        id: String(team.id),
        keywordId: String(team.keyword_id),
        name: team.name,
        captainId: team.captain_id === undefined || team.captain_id === null ? null : String(team.captain_id),
        goal: team.fundraising_goal ?? null,
      })),
      lists: account.lists,
    })),
  };
  checkReferences(fixture, source);
  return fixture;
}

/** Reads, parses and validates a fixture file. */
export function loadFixtureFile(path: string): Fixture {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new FixtureError(
      `${path}: cannot read the fixture (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new FixtureError(`${path}: not valid JSON (${(error as Error).message})`);
  }
  return parseFixture(value, path);
}

const reserved = (id: string) =>
  id.startsWith(ROOT_FUNDRAISER_PREFIX) || id.startsWith(HIDDEN_CAPTAIN_PREFIX);

function checkReferences(fixture: Fixture, source: string): void {
  const fail = (path: PathPart[], message: string): never => {
    throw new FixtureError(`${source}: ${formatPath(path)}: ${message}`);
  };
  const tokens = new Set<string>();
  const keywordIds = new Set<string>();
  const targets = new Set<string>();
  const events = new Set<string>();
  const fundraiserIds = new Set<string>();
  const teamIds = new Set<string>();

  fixture.accounts.forEach((account, a) => {
    const base: PathPart[] = ["accounts", a];
    for (const field of ["private_token", "public_token"] as const) {
      const token = field === "private_token" ? account.privateToken : account.publicToken;
      if (tokens.has(token)) fail([...base, field], "this token is already used by another account or token");
      tokens.add(token);
    }

    const keywords = new Map(account.keywords.map((keyword) => [keyword.id, keyword]));
    account.keywords.forEach((keyword, k) => {
      const at: PathPart[] = [...base, "keywords", k];
      if (keywordIds.has(keyword.id)) fail([...at, "id"], `keyword id "${keyword.id}" is used twice`);
      keywordIds.add(keyword.id);
      const target = `${keyword.shortcode}/${keyword.keyword.toUpperCase()}`;
      if (targets.has(target))
        fail([...at, "keyword"], `${keyword.keyword}@${keyword.shortcode} is defined twice`);
      targets.add(target);
      if ((keyword.eventId === null) !== (keyword.eventType === null)) {
        fail(
          [...at, keyword.eventId === null ? "event_id" : "event_type"],
          "event_id and event_type go together",
        );
      }
      if (keyword.eventId !== null) {
        const event = `${keyword.eventType}/${keyword.eventId}`;
        if (events.has(event)) fail([...at, "event_id"], `event "${keyword.eventId}" is defined twice`);
        events.add(event);
      }
      const formIds = new Set<string>();
      keyword.forms.forEach((form, f) => {
        if (formIds.has(form.id)) fail([...at, "forms", f, "id"], `form id "${form.id}" is used twice`);
        formIds.add(form.id);
      });
      if (keyword.forms.filter((form) => form.default).length > 1) {
        fail([...at, "forms"], "at most one form is the default");
      }
    });

    const teams = new Map(account.teams.map((team) => [team.id, team]));
    const fundraisers = new Map(account.fundraisers.map((fundraiser) => [fundraiser.id, fundraiser]));
    account.fundraisers.forEach((fundraiser, f) => {
      const at: PathPart[] = [...base, "fundraisers", f];
      if (fundraiserIds.has(fundraiser.id))
        fail([...at, "id"], `fundraiser id "${fundraiser.id}" is used twice`);
      if (reserved(fundraiser.id)) fail([...at, "id"], "ids starting npo- or captain- are the sandbox's own");
      fundraiserIds.add(fundraiser.id);
      const keyword = keywords.get(fundraiser.keywordId);
      if (!keyword) fail([...at, "keyword_id"], `no keyword "${fundraiser.keywordId}" in this account`);
      else if (!keyword.peerFundraising)
        fail([...at, "keyword_id"], "the keyword is not a peer-fundraising keyword");
      if (fundraiser.teamId !== null) {
        const team = teams.get(fundraiser.teamId);
        if (!team) fail([...at, "team_id"], `no team "${fundraiser.teamId}" in this account`);
        else if (team.keywordId !== fundraiser.keywordId)
          fail([...at, "team_id"], "the team is of another keyword");
      }
    });

    account.teams.forEach((team, t) => {
      const at: PathPart[] = [...base, "teams", t];
      if (teamIds.has(team.id)) fail([...at, "id"], `team id "${team.id}" is used twice`);
      teamIds.add(team.id);
      const keyword = keywords.get(team.keywordId);
      if (!keyword) fail([...at, "keyword_id"], `no keyword "${team.keywordId}" in this account`);
      else if (!keyword.peerFundraising)
        fail([...at, "keyword_id"], "the keyword is not a peer-fundraising keyword");
      if (team.captainId !== null) {
        const captain = fundraisers.get(team.captainId);
        if (!captain) fail([...at, "captain_id"], `no fundraiser "${team.captainId}" in this account`);
        else if (captain.teamId !== team.id)
          fail([...at, "captain_id"], "the captain is not a member of this team");
      }
    });

    const lists = new Set<string>();
    account.lists.forEach((list, l) => {
      if (lists.has(list.toLowerCase())) fail([...base, "lists", l], `list "${list}" is defined twice`);
      lists.add(list.toLowerCase());
    });
  });
}
