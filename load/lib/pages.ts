// Reading the paged envelope's total_pages, so users spread over every customer page. Pure.

/** The largest page the release script reads to learn the page count (a page of 50 customers is a few KiB). */
export const MAX_PAGE_BYTES = 1024 * 1024;

/** Whether a 200 declared a size the script may read whole (k6 has no cap of its own). */
export function readableSize(status: number, contentLength: string | undefined): boolean {
  if (status !== 200 || contentLength === undefined || !/^\d{1,15}$/.test(contentLength.trim())) return false;
  return Number(contentLength) <= MAX_PAGE_BYTES;
}

export function pageCount(body: unknown): number | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const pages = (JSON.parse(body) as { pagination?: { total_pages?: unknown } }).pagination?.total_pages;
    return typeof pages === 'number' && Number.isInteger(pages) && pages >= 1 ? pages : undefined;
  } catch {
    return undefined;
  }
}
