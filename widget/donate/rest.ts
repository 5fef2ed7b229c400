import { lazyModule } from "./base/lazy";

/**
 * The rest of the form (later.ts): its steps after the gift's, the request's check, the attempt
 * and the outcome, a chunk fetched as the form opens (load-later.ts), its components rendered
 * with lazy() where they show.
 */
export const rest = lazyModule(() => import("./later"));
