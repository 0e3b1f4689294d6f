// Rule ids and spec areas as vitest test tags: check() tags its test with its rules and area, the
// vitest configurations define exactly these tags (vitest refuses any other), and the reporter,
// --list-rules and the --rule/--area filters read tags instead of parsing test names.
import type { TestTagDefinition } from 'vitest/config';
import { AREAS, type Area, findRule, RULES } from './catalogue.ts';

/** Every tag a conformance test may carry: one per rule id, one per area (`area:NAME`). */
export function conformanceTags(): TestTagDefinition[] {
  return [
    ...RULES.map((rule) => ({ name: rule.id, description: `${rule.level}: ${rule.text}` })),
    ...AREAS.map((area) => ({ name: areaTag(area), description: `the checks of the ${area} area` })),
  ];
}

const AREA_PREFIX = 'area:';

/** The tag of an area: prefixed, so an area name can never be read as a rule id. */
export function areaTag(area: Area): string {
  return `${AREA_PREFIX}${area}`;
}

/** The area a test's tags name, if any. */
export function areaOfTags(tags: readonly string[]): Area | undefined {
  for (const tag of tags) {
    if (!tag.startsWith(AREA_PREFIX)) continue;
    const name = tag.slice(AREA_PREFIX.length);
    const area = AREAS.find((a) => a === name);
    if (area) return area;
  }
  return undefined;
}

/** The rule ids among a test's tags, in their order. */
export function rulesOfTags(tags: readonly string[]): string[] {
  return tags.filter((tag) => findRule(tag) !== undefined);
}

/**
 * vitest's tags filter for a selection: any of the areas, and any of the rules (vitest ANDs the
 * expressions). Undefined when nothing is selected.
 */
export function tagsFilterOf(selection: {
  areas: readonly Area[];
  rules: readonly string[];
}): string[] | undefined {
  const either = (tags: readonly string[]) => (tags.length === 1 ? `${tags[0]}` : `(${tags.join(' || ')})`);
  const filters = [
    ...(selection.areas.length ? [either(selection.areas.map(areaTag))] : []),
    ...(selection.rules.length ? [either(selection.rules)] : []),
  ];
  return filters.length ? filters : undefined;
}
