// Spreadsheet programs run a cell that starts with one of these as a formula (=HYPERLINK(…), +cmd|…, @SUM(…)),
// tab and carriage return included because some programs strip them before reading the rest.
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r'])

/**
 * A text cell made safe to open in a spreadsheet: a cell that would start a formula gets a leading single quote,
 * which spreadsheets read as "this is text" and which keeps the value readable for anyone else.
 */
export function spreadsheetSafe(value: string): string {
  return value.length > 0 && FORMULA_TRIGGERS.has(value[0]) ? `'${value}` : value
}

/** Every text cell of a row made spreadsheet-safe; numbers (written by the server, never by a caller) stay as they are. */
export function spreadsheetSafeRow(row: Array<string | number>): Array<string | number> {
  return row.map((cell) => (typeof cell === 'string' ? spreadsheetSafe(cell) : cell))
}
