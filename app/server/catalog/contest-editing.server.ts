import { findContest } from "./contest-list.server";
import { positiveId } from "~/lib/rules/params";
import { notFound } from "../http/not-found.server";

/** The contest an edit page works on; a 404 (shown as 大会が見つかりません) when there is none. */
export function requireEditableContest(params: { id?: string }) {
  const id = positiveId(params.id);
  const contest = id ? findContest(id) : null;
  if (!contest) notFound();
  return contest;
}
