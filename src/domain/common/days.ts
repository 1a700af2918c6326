// Periods of whole UTC days (tax codes, academic terms): a period from `from` to `to`
// covers every instant of the day of `from` through the end of the day of `to`.

export const DAY_MS = 86_400_000;

export function startOfUtcDay(d: Date): Date {
  return new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
}

/** Whether `at` lies on a UTC day from the day of `from` through the day of `to` (null: open-ended). */
export function withinDays(at: Date, from: Date, to: Date | null): boolean {
  const t = at.getTime();
  if (t < startOfUtcDay(from).getTime()) return false;
  return to === null || t < startOfUtcDay(to).getTime() + DAY_MS;
}
