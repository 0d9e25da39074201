/** /likes: the received tab of the likes overview, without the installed-app back button (spec §2 names likes-type only). */
export { default, loader, middleware } from "./likes";
