/** What an entry number is called when the contest names nothing else (the contests' own default). */
export const DEFAULT_NUMBER_LABEL = "ゼッケン番号";

/**
 * The label of a contest's entry numbers (ゼッケン番号, 演奏順…), as the shop shows and mails it.
 * An order copies it when it is made, so the order keeps it after the contest is changed or
 * deleted (no contest: the default).
 */
export function numberLabelOf(contest: { bibNumberLabel: string } | null | undefined): string {
  return contest?.bibNumberLabel || DEFAULT_NUMBER_LABEL;
}
