export * from "./api";
export * from "./card";
export * from "./errors";
export * from "./frame";
export * from "./money";
export * from "./patterns";
export * from "./phone";
export * from "./upstream";
