import { lazy, lazyModule } from "../base/lazy";

/** A dedication's fields, model and check: an extra, fetched beside later.ts by a form that asks for one (load-later.ts). */
export const dedication = lazyModule(() => import("./dedication"));
export const DedicationFields = lazy(dedication, "DedicationFields");
