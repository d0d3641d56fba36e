// The only module that calls Excel.run. Everything workbook-related the add-in does goes
// through here, so the rest of the code stays plain functions that tests can import.

/**
 * Recalculates every formula in the workbook, so every PROP formula runs again. A full
 * recalculation also recomputes non-PROP formulas; Excel has no "recalculate these functions
 * only" call. PROP formulas answer from the result cache unless refreshCachedResults()
 * (src/shared/addin-session.ts) marked their results stale first.
 */
export async function recalculateWorkbook(): Promise<void> {
  await Excel.run(async (context) => {
    context.workbook.application.calculate(Excel.CalculationType.full);
    await context.sync();
  });
}
