/** The periods the security dashboard can look back over, in hours. */
export const SECURITY_PERIODS = { "24h": 24, "7d": 24 * 7, "30d": 24 * 30 } as const;
export type SecurityPeriod = keyof typeof SECURITY_PERIODS;

export function parsePeriod(value: string | null): SecurityPeriod {
  return value && value in SECURITY_PERIODS ? (value as SecurityPeriod) : "24h";
}
