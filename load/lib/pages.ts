// Reading the paged envelope's total_pages, so users spread over every customer page. Pure.

export function pageCount(body: unknown): number | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const pages = (JSON.parse(body) as { pagination?: { total_pages?: unknown } }).pagination?.total_pages;
    return typeof pages === 'number' && Number.isInteger(pages) && pages >= 1 ? pages : undefined;
  } catch {
    return undefined;
  }
}
