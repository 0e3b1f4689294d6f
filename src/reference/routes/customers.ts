// GET /v1/customers: one page of the paged envelope, the 422 beyond the last page, 400 for a page
// that is not a positive integer. Pages are 1-based; an empty collection still has one (empty) page.
import { ApiError, badRequest } from '../api-error.ts';
import { quoted, type RequestContext, singleParam } from '../context.ts';
import { customers } from '../data.ts';
import type { Reply } from '../reply.ts';

type Page = { kind: 'number'; value: number } | { kind: 'huge'; digits: string };

function requestedPage(ctx: RequestContext): Page {
  const raw = singleParam(ctx, 'page');
  if (raw === undefined) return { kind: 'number', value: 1 };
  if (!/^\d+$/.test(raw)) {
    if (ctx.state.faults.has('page-not-integer-500') && !/^-\d+$/.test(raw)) {
      throw new ApiError(500, 'INTERNAL_ERROR', 'an internal error occurred', { handled: false });
    }
    throw badRequest(`page must be an integer of at least 1, got ${quoted(raw)}`);
  }
  const digits = raw.replace(/^0+(?=\d)/, '');
  if (digits === '0') {
    if (ctx.state.faults.has('page-zero-500')) {
      throw new ApiError(500, 'INTERNAL_ERROR', 'an internal error occurred', { handled: false });
    }
    if (ctx.state.faults.has('page-zero-first-page')) return { kind: 'number', value: 1 };
    throw badRequest('page must be an integer of at least 1, got "0"');
  }
  // Too large for a number, but still an integer page: beyond the last page, so a 422.
  return digits.length > 15 ? { kind: 'huge', digits } : { kind: 'number', value: Number(digits) };
}

function beyondLastPage(ctx: RequestContext, pageText: string, totalPages: number): ApiError {
  const { faults } = ctx.state;
  const message = faults.has('page-beyond-message-without-max')
    ? 'the requested page is out of range'
    : `page ${pageText} is greater than the maximum page ${totalPages}`;
  return new ApiError(faults.has('page-beyond-last-400') ? 400 : 422, 'VALIDATION_ERROR', message, {
    ...(faults.has('page-beyond-errors-filled') ? { errors: [message] } : {}),
    ...(faults.has('page-beyond-unhandled') ? { handled: false } : {}),
  });
}

export function customersPage(ctx: RequestContext): Reply {
  const { faults, options } = ctx.state;
  const page = requestedPage(ctx);
  const collection = customers(options.seed, options.customers);
  const all = options.extraFields ? collection.rich : collection.plain;
  const size = faults.has('page-size-20') ? 20 : options.pageSize;
  const totalPages = Math.max(1, Math.ceil(all.length / size));
  const beyond = page.kind === 'huge' || page.value > totalPages;
  if (beyond && !faults.has('page-beyond-last-200')) {
    throw beyondLastPage(ctx, page.kind === 'huge' ? page.digits : String(page.value), totalPages);
  }
  const current = page.kind === 'huge' ? Number.MAX_SAFE_INTEGER : page.value;
  const start = (current - 1) * size;
  let data = all.slice(start, start + size);
  if (faults.has('pages-overlap') && current > 1 && data.length > 0) {
    const previousLast = all[start - 1];
    data = [...(previousLast ? [previousLast] : []), ...data.slice(0, -1)];
  }
  const last = current >= totalPages;
  const pagination: Record<string, number | string> = {
    total_items: all.length + (faults.has('total-items-off-by-one') ? 1 : 0),
    showing_items: data.length + (faults.has('showing-items-off-by-one') ? 1 : 0),
    total_pages: totalPages + (faults.has('total-pages-off-by-one') ? 1 : 0),
    current_page: current - (faults.has('current-page-zero-based') ? 1 : 0),
    previous_page:
      current === 1 ? (faults.has('previous-page-zero-on-first') ? 0 : 1) : Math.min(current - 1, totalPages),
    next_page: last ? (faults.has('next-page-beyond-last') ? totalPages + 1 : totalPages) : current + 1,
  };
  if (faults.has('pagination-numbers-as-strings')) {
    for (const [k, v] of Object.entries(pagination)) pagination[k] = String(v);
  }
  const envelope: Record<string, unknown> = {
    pagination,
    data,
    extra: options.extraFields ? { sort: 'id', order: 'asc', page_size: size } : {},
  };
  if (faults.has('envelope-missing-extra')) delete envelope.extra;
  if (faults.has('customers-text-content-type')) {
    return {
      status: 200,
      text: { contentType: 'text/plain; charset=utf-8', body: JSON.stringify(envelope) },
    };
  }
  return { status: 200, json: envelope };
}
