import { lazy, lazyModule } from "../base/lazy";

/**
 * The address's fields and its country list: an extra, fetched beside later.ts by a form that
 * asks for the address (load-later.ts).
 */
export const countryList = lazyModule(() => import("./CountryField"));
export const AddressFields = lazy(countryList, "AddressFields");
