import { ENDPOINTS } from "@app/contract";
import { queryOptions } from "@tanstack/react-query";
import { callEndpoint } from "../../lib/api";

/** GET /api/visitors.php (issue #29): a page of the member's profile visitors. */
export const visitorsQuery = (page: number) =>
  queryOptions({
    queryKey: ["visitors", page],
    queryFn: () => callEndpoint(ENDPOINTS.visitors, { query: { page } }),
  });
