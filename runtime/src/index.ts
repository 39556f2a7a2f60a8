export * from "./handler-api.js";
