/**
 * Reads a JSON answer whose one big array (a report's rows, a list's entries) is handed over
 * element by element as it arrives, while the rest of the answer (its envelope) is parsed as
 * usual with that array left empty. Memory stays at one element plus the envelope, whatever the
 * answer's size (@streamparser/json tokenizes; this file only routes the tokens).
 */
import { TokenParser, Tokenizer, TokenType, type ParsedTokenInfo } from "@streamparser/json";

/** The answer is not JSON, or an element or the envelope outgrew its bound. */
export class JsonRowsError extends Error {
  override name = "JsonRowsError";
}

export interface JsonRowsOptions {
  /** The keys leading from the root to the array, e.g. ["report", "transactions"]. */
  path: readonly string[];
  /** Called with each element of that array, in order, once it is complete. */
  onRow(row: unknown): void;
  /** At most this many bytes between two elements (one element, or the envelope around them). */
  maxRowBytes: number;
}

export interface JsonRows {
  write(chunk: Uint8Array): void;
  /** The envelope (the array in it empty), once the whole answer has been written. */
  end(): unknown;
  /** Elements handed over so far. */
  readonly rows: number;
}

interface Frame {
  object: boolean;
  /** The key of the member being read (objects only). */
  key?: string;
  /** The next string is a key (objects only). */
  expectKey: boolean;
}

/**
 * @example
 * const reader = readJsonRows({ path: ["fundraisers"], onRow: (row) => rows.push(row), maxRowBytes: 1 << 20 });
 * reader.write(Buffer.from('{"fundraisers":[{"id":1},{"id":2}]}'));
 * reader.end(); // {fundraisers: []}, and rows holds both
 */
export function readJsonRows(options: JsonRowsOptions): JsonRows {
  const tokenizer = new Tokenizer();
  const envelope = new TokenParser({ paths: ["$"] });
  const element = new TokenParser({ paths: ["$"], keepStack: false, separator: "" });
  let document: unknown;
  let documentDone = false;
  let rows = 0;
  /** Bytes written so far, and the offset where the last row ended (or the answer began). */
  let written = 0;
  let lastRowEnd = 0;
  let tokenOffset = 0;
  let failure: Error | undefined;

  const stack: Frame[] = [];
  /** Inside the array: the depth of the element being read, or -1 outside it. */
  let rowDepth = -1;

  const fail = (error: Error) => {
    failure ??= error;
  };
  const check = () => {
    if (failure instanceof JsonRowsError) throw failure;
    if (failure) throw new JsonRowsError(`not JSON: ${failure.message}`);
  };
  tokenizer.onError = fail;
  envelope.onError = fail;
  element.onError = fail;
  envelope.onValue = ({ value }) => {
    document = value;
    documentDone = true;
  };
  element.onValue = ({ value }) => {
    if (tokenOffset - lastRowEnd > options.maxRowBytes) {
      fail(new JsonRowsError(`a row of more than ${options.maxRowBytes} bytes`));
      return;
    }
    lastRowEnd = tokenOffset;
    rows++;
    options.onRow(value);
  };

  const atPath = () =>
    stack.length === options.path.length &&
    stack.every((frame, index) => frame.object && frame.key === options.path[index]);

  tokenizer.onToken = (token: ParsedTokenInfo) => {
    tokenOffset = token.offset;
    if (rowDepth >= 0) {
      if (rowDepth === 0 && token.token === TokenType.COMMA) return;
      if (rowDepth === 0 && token.token === TokenType.RIGHT_BRACKET) {
        rowDepth = -1;
        stack.pop();
        envelope.write(token);
        return;
      }
      if (token.token === TokenType.LEFT_BRACE || token.token === TokenType.LEFT_BRACKET) rowDepth++;
      else if (token.token === TokenType.RIGHT_BRACE || token.token === TokenType.RIGHT_BRACKET) rowDepth--;
      element.write(token);
      return;
    }
    const top = stack.at(-1);
    switch (token.token) {
      case TokenType.LEFT_BRACE:
        stack.push({ object: true, expectKey: true });
        break;
      case TokenType.LEFT_BRACKET:
        if (atPath()) rowDepth = 0;
        stack.push({ object: false, expectKey: false });
        break;
      case TokenType.RIGHT_BRACE:
      case TokenType.RIGHT_BRACKET:
        stack.pop();
        break;
      case TokenType.COMMA:
        if (top?.object) top.expectKey = true;
        break;
      case TokenType.STRING:
        if (top?.object && top.expectKey) {
          top.key = token.value as string;
          top.expectKey = false;
        }
        break;
      default:
        break;
    }
    envelope.write(token);
  };

  return {
    get rows() {
      return rows;
    },
    write(chunk) {
      check();
      written += chunk.length;
      tokenizer.write(chunk);
      check();
      if (written - lastRowEnd > options.maxRowBytes) {
        throw new JsonRowsError(`more than ${options.maxRowBytes} bytes without a complete row`);
      }
    },
    end() {
      if (!tokenizer.isEnded) tokenizer.end();
      check();
      if (!documentDone) throw new JsonRowsError("the answer ended before its JSON did");
      return document;
    },
  };
}
