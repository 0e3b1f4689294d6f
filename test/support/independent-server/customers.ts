// GET /v1/customers: the paged envelope (spec: Paged collection envelope; Limits; Errors).
// Item fields are this server's own (spec: "the item shape of /v1/customers: not shown").
import type { ErrorSpec } from './error-body.ts';
import type { IndependentOptions } from './options.ts';

export interface Customer {
  customer_ref: string;
  legal_name: string;
  country: string;
  segment: 'smb' | 'enterprise';
  onboarded_on: string;
}

export function makeCustomers(count: number): Customer[] {
  const countries = ['PT', 'ES', 'DE', 'FR', 'BR'];
  return Array.from({ length: count }, (_, i) => ({
    customer_ref: `cus_${String(i + 1).padStart(5, '0')}`,
    legal_name: `Customer ${i + 1} Lda`,
    country: countries[i % countries.length] ?? 'PT',
    segment: i % 7 === 0 ? 'enterprise' : 'smb',
    onboarded_on: new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10),
  }));
}

type PageChoice = { ok: true; page: number } | { ok: false; error: ErrorSpec };

/** Reads ?page=: absent is the first page; a whole number above total_pages is the shown 422. */
export function choosePage(
  values: string[] | undefined,
  totalPages: number,
  options: IndependentOptions,
): PageChoice {
  if (values === undefined) return { ok: true, page: 1 };
  if (values.length > 1) {
    return {
      ok: false,
      error: { status: 400, code: 'INVALID_PARAMETER', message: 'page is given more than once' },
    };
  }
  const raw = values[0] ?? '';
  if (!/^\d+$/.test(raw) || BigInt(raw) === 0n) {
    // Our choice (the spec shows only the page above the last): 400, with its own code.
    return {
      ok: false,
      error: {
        status: 400,
        code: 'INVALID_PAGE',
        message: 'page must be a positive whole number',
        errors: ['page must be a positive whole number', `got "${raw.slice(0, 40)}"`],
      },
    };
  }
  const requested = BigInt(raw);
  if (requested > BigInt(totalPages)) {
    if (options.breakRule === 'beyond-last-page-200') return { ok: true, page: totalPages };
    return {
      ok: false,
      error: {
        status: 422,
        code: 'VALIDATION_ERROR',
        message: `page ${requested} is out of range; the maximum page is ${totalPages}`,
        errors: [],
      },
    };
  }
  return { ok: true, page: Number(requested) };
}

export function pageOf<T>(items: readonly T[], page: number, pageSize: number, options: IndependentOptions) {
  const totalPages = Math.max(1, Math.ceil(items.length / pageSize));
  const data = items.slice((page - 1) * pageSize, page * pageSize);
  const envelope = {
    pagination: {
      total_items: items.length,
      showing_items: options.breakRule === 'showing-items-off' ? data.length + 1 : data.length,
      total_pages: totalPages,
      current_page: page,
      previous_page: page === 1 ? 1 : page - 1,
      next_page: page === totalPages ? totalPages : page + 1,
    },
    data,
    extra: { sorted_by: 'customer_ref' },
  };
  if (!options.extraFields) return envelope;
  return {
    ...envelope,
    pagination: { ...envelope.pagination, page_size: pageSize },
    links: { self: `?page=${page}`, next: page < totalPages ? `?page=${page + 1}` : null },
  };
}

export function totalPagesOf(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}
