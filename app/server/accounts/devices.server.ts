import { deviceLabel } from "~/server/accounts/device-label.server";
import { formatDateTime } from "~/lib/rules/format";
import { activeSessions, type ShopSession } from "../http/session.server";

/** One logged-in device as the account page lists it. */
export type LoggedInDevice = {
  device: string;
  ipAddress: string | null;
  loggedInAt: string;
  lastSeenAt: string;
  current: boolean;
  admin: boolean;
};

/** The account's logged-in devices, this one first, then by last use. */
export function loggedInDevices(userId: number, session: ShopSession): LoggedInDevice[] {
  return activeSessions(userId, session)
    .sort((a, b) => Number(b.current) - Number(a.current))
    .map((row) => ({
      device: deviceLabel(row.userAgent),
      ipAddress: row.ipAddress,
      loggedInAt: formatDateTime(row.createdAt),
      lastSeenAt: formatDateTime(row.lastSeenAt),
      current: row.current,
      admin: row.kind === "admin",
    }));
}
