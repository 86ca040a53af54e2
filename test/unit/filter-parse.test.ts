import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../domain/segments/filter/parse.pure.js';

const nested = (depth: number): unknown =>
  depth === 1
    ? { operator: 'AND', conditions: [{ field: 'data.plan', operator: 'exists' }] }
    : { operator: 'OR', conditions: [nested(depth - 1)] };

const problemsOf = (input: unknown) => {
  const parsed = parseFilter(input);
  return 'problems' in parsed
    ? parsed.problems.map((p) => ({ path: p.path.join('.'), code: p.code }))
    : [];
};

describe('parseFilter', () => {
  it('takes groups nested 5 deep and refuses 6, naming the group', () => {
    expect(problemsOf(nested(5))).toEqual([]);
    expect(problemsOf(nested(6))).toEqual([
      {
        path: 'conditions.0.conditions.0.conditions.0.conditions.0.conditions.0',
        code: 'too_deep',
      },
    ]);
  });

  it('names the part of a filter that is wrong, and finds every problem', () => {
    expect(
      problemsOf({
        operator: 'AND',
        conditions: [
          { field: 'data.plan', operator: 'equals', value: 'pro' },
          { field: 'email', operator: 'greaterThan', value: 3 },
          { field: 'data.plan', operator: 'frobnicates', value: 1 },
          { field: 'nickname', operator: 'equals', value: 'x' },
          { field: 'event.purchase', operator: 'triggeredCount', value: 0 },
          { field: 'data.age', operator: 'within', value: 7, unit: 'weeks' },
          { field: 'segment.not-an-id', operator: 'memberOf' },
          { field: 'data.tags', operator: 'in', value: [] },
        ],
      }),
    ).toEqual([
      { path: 'conditions.1.operator', code: 'invalid_operator' },
      { path: 'conditions.2.operator', code: 'invalid_operator' },
      { path: 'conditions.3.field', code: 'invalid_field' },
      { path: 'conditions.4.value', code: 'invalid_value' },
      { path: 'conditions.5.unit', code: 'invalid_value' },
      { path: 'conditions.6.field', code: 'invalid_field' },
      { path: 'conditions.7.value', code: 'invalid_value' },
    ]);
    expect(problemsOf({ operator: 'XOR', conditions: [] })).toEqual([
      { path: 'operator', code: 'invalid_operator' },
    ]);
    expect(problemsOf('plan = pro')).toEqual([{ path: '', code: 'invalid_type' }]);
  });

  it('puts values in their canonical form', () => {
    const parsed = parseFilter({
      operator: 'and',
      conditions: [
        { field: 'subscribed', operator: 'equals', value: 'true' },
        { field: 'email', operator: 'in', value: ['Ada@Example.COM'] },
        { field: 'data.code', operator: 'contains', value: 42 },
        { field: 'data.age', operator: 'greaterThan', value: '30' },
        { field: 'event.email.open', operator: 'triggeredWithin', value: 7 },
        { field: 'data.plan', operator: 'exists', value: 'ignored' },
      ],
    });
    expect(parsed).toEqual({
      filter: {
        operator: 'AND',
        conditions: [
          { field: 'subscribed', operator: 'equals', value: true },
          { field: 'email', operator: 'in', value: ['ada@example.com'] },
          { field: 'data.code', operator: 'contains', value: '42' },
          { field: 'data.age', operator: 'greaterThan', value: 30 },
          { field: 'event.email.opened', operator: 'triggeredWithin', value: 7, unit: 'days' },
          { field: 'data.plan', operator: 'exists' },
        ],
      },
    });
  });

  it("converts Plunk's {logic, groups} shape, its operator names included", () => {
    const segmentId = '0195f3a4-7d3b-7c2e-9a51-3c1f0c2b8e11';
    // Conditions whose operators both shapes name alike go through as they are.
    const alike = [
      { field: 'data.plan', operator: 'equals', value: 'pro' },
      { field: 'event.signup', operator: 'notTriggeredWithin', value: 3, unit: 'hours' },
    ];
    expect(
      parseFilter({
        logic: 'OR',
        groups: [
          { filters: alike },
          {
            filters: [{ field: `segment.${segmentId}`, operator: 'memberOfSegment' }],
            conditions: {
              logic: 'AND',
              groups: [
                { filters: [{ field: 'event.buy', operator: 'triggeredOlderThan', value: 1 }] },
              ],
            },
          },
        ],
      }),
    ).toEqual({
      filter: {
        operator: 'OR',
        conditions: [
          { operator: 'AND', conditions: structuredClone(alike) },
          {
            operator: 'AND',
            conditions: [
              { field: `segment.${segmentId}`, operator: 'memberOf' },
              {
                operator: 'AND',
                conditions: [
                  { field: 'event.buy', operator: 'triggeredOlderThan', value: 1, unit: 'days' },
                ],
              },
            ],
          },
        ],
      },
    });
    expect(
      problemsOf({
        logic: 'AND',
        groups: [{ filters: [{ field: 'data.plan', operator: 'hasTag', value: 'x' }] }],
      }),
    ).toEqual([{ path: 'groups.0.filters.0.operator', code: 'invalid_operator' }]);
  });
});
