import { data } from "@remix-run/node";
import { findContest } from "./contest-list.server";

/** The contest id in /admin/contest/{id}/…, or null when it is not a positive integer. */
export function contestIdParam(params: { id?: string }): number | null {
  const id = Number(params.id);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The contest an edit page works on; a 404 (shown as 大会が見つかりません) when there is none. */
export function requireEditableContest(params: { id?: string }) {
  const id = contestIdParam(params);
  const contest = id ? findContest(id) : null;
  if (!contest) throw data({ id: params.id ?? "" }, { status: 404 });
  return contest;
}
