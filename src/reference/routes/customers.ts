// GET /v1/customers: one page of the paged envelope, the 422 beyond the last page, 400 for a page
// that is not a positive integer. Pages are 1-based; an empty collection still has one (empty) page.
import { ApiError, badRequest } from '../api-error.ts';
import { quoted, type RequestContext, readNotation, singleParam } from '../context.ts';
import { customers } from '../data.ts';
import type { Reply } from '../reply.ts';

type Page = { kind: 'number'; value: number } | { kind: 'huge'; digits: string };

function requestedPage(ctx: RequestContext): Page {
  const { choices } = ctx.state.options;
  const given = singleParam(ctx, 'page');
  // The choices the spec leaves open (src/reference/options.ts): an empty page read as none, and
  // which 4xx refuses a page below 1.
  const raw =
    given === '' && choices['empty-query-value'] === 'absent' ? undefined : given && readNotation(ctx, given);
  const belowOne = (message: string) =>
    choices['page-below-one'] === '422'
      ? new ApiError(422, 'VALIDATION_ERROR', message)
      : badRequest(message);
  if (raw === undefined) return { kind: 'number', value: 1 };
  if (!/^\d+$/.test(raw)) {
    if (ctx.state.faults.has('page-invalid-first-page')) return { kind: 'number', value: 1 };
    if (ctx.state.faults.has('page-not-integer-500') && !/^-\d+$/.test(raw)) {
      throw new ApiError(500, 'INTERNAL_ERROR', 'an internal error occurred', { handled: false });
    }
    const message = `page must be an integer of at least 1, got ${quoted(raw)}`;
    throw /^-\d+$/.test(raw) ? belowOne(message) : badRequest(message);
  }
  const digits = raw.replace(/^0+(?=\d)/, '');
  if (digits === '0') {
    if (ctx.state.faults.has('page-zero-500')) {
      throw new ApiError(500, 'INTERNAL_ERROR', 'an internal error occurred', { handled: false });
    }
    if (ctx.state.faults.has('page-zero-first-page')) return { kind: 'number', value: 1 };
    if (ctx.state.faults.has('bearer-page-zero-first-page') && ctx.req.headers.authorization !== undefined) {
      return { kind: 'number', value: 1 };
    }
    throw belowOne('page must be an integer of at least 1, got "0"');
  }
  if (ctx.state.faults.has('page-wraps-32-bit')) {
    // An unsigned 32-bit reading: 2^32 + 1 wraps round to page 1.
    return { kind: 'number', value: Number(BigInt(digits) % 2n ** 32n) || 1 };
  }
  // Too large for a number, but still an integer page: beyond the last page, so a 422.
  return digits.length > 15 ? { kind: 'huge', digits } : { kind: 'number', value: Number(digits) };
}

function beyondLastPage(pageText: string, totalPages: number): ApiError {
  return new ApiError(
    422,
    'VALIDATION_ERROR',
    `page ${pageText} is greater than the maximum page ${totalPages}`,
    // The spec: "errors is an empty array" on this one, whatever the errors-field choice.
    { errors: [] },
  );
}

export function customersPage(ctx: RequestContext): Reply {
  const { faults, options } = ctx.state;
  const page = requestedPage(ctx);
  const collection = customers(options.seed, options.customers);
  const kept = options.extraFields ? collection.rich : collection.plain;
  // Fault unknown-param-reverses-order: a parameter the route does not know drops its order.
  const unknown = [...ctx.query.keys()].some((name) => name !== 'page');
  const all = unknown && faults.has('unknown-param-reverses-order') ? [...kept].reverse() : kept;
  const bearerPages = faults.has('bearer-page-size-20') && ctx.req.headers.authorization !== undefined;
  const size = faults.has('page-size-20') || bearerPages ? 20 : options.pageSize;
  const totalPages = Math.max(1, Math.ceil(all.length / size));
  const beyond = page.kind === 'huge' || page.value > totalPages;
  if (beyond && !faults.has('page-beyond-last-200')) {
    throw beyondLastPage(page.kind === 'huge' ? page.digits : String(page.value), totalPages);
  }
  const current = page.kind === 'huge' ? Number.MAX_SAFE_INTEGER : page.value;
  // Fault bearer-pages-repeat-first: through a bearer token every page starts at the first item.
  const repeat = faults.has('bearer-pages-repeat-first') && ctx.req.headers.authorization !== undefined;
  const start = repeat ? 0 : (current - 1) * size;
  let data = all.slice(start, start + size);
  if (faults.has('pages-overlap') && current > 1 && data.length > 0) {
    const previousLast = all[start - 1];
    data = [...(previousLast ? [previousLast] : []), ...data.slice(0, -1)];
  }
  // The correct pagination; the faults that reshape it are data (src/reference/reshape.ts).
  const pagination = {
    total_items: all.length,
    showing_items: data.length,
    total_pages: totalPages,
    current_page: current,
    previous_page: current === 1 ? 1 : Math.min(current - 1, totalPages),
    next_page: current >= totalPages ? totalPages : current + 1,
  };
  const extra = options.extraFields ? { sort: 'id', order: 'asc', page_size: size } : {};
  return { status: 200, json: { pagination, data, extra } };
}
