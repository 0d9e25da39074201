import { type ComplaintRequest, ENDPOINTS } from "@app/contract";
import { queryOptions } from "@tanstack/react-query";
import { callEndpoint } from "../../lib/api";

/** POST /api/complaint.php: stores the complaint and mails its reference (contract complaints.ts). */
export function sendComplaint(body: ComplaintRequest) {
  return callEndpoint(ENDPOINTS.complaint, { body });
}

/** GET /api/member.php?id=: the member a complaint is about, for their name (null when it cannot be loaded). */
export const concernedMemberQuery = (id: number) =>
  queryOptions({
    queryKey: ["complaints", "member", id],
    queryFn: async () => {
      try {
        return (await callEndpoint(ENDPOINTS.member, { query: { id } })).profile;
      } catch {
        return null;
      }
    },
    retry: false,
  });
