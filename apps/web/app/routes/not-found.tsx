import { data } from "react-router";

/** Every path no route matches answers HTTP 404; the layout's boundary renders the error page. */
export function loader() {
  throw data(null, { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}
