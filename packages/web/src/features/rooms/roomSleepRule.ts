import { useMemo } from 'react';
import { useDocument } from '../../lib/documents/hooks.ts';
import { DEFAULT_RULE, type SleepDayRule } from './roomSleepData.ts';

/**
 * The room's domain's sleep-day rule (`dates.sleepDayBoundaryHour`, `timeZone`). Users who may not read
 * the domain record (individual users, report viewers) get the default rule, which the demo domains use.
 */
export function useSleepDayRule(domainId: string): SleepDayRule {
  const domain = useDocument(`domains/${domainId}`);
  const hour = domain.data?.dates?.sleepDayBoundaryHour;
  const zone = domain.data?.timeZone;
  return useMemo(
    () => ({
      boundaryHour: typeof hour === 'number' && Number.isInteger(hour) && hour >= 0 && hour <= 23 ? hour : DEFAULT_RULE.boundaryHour,
      timeZone: typeof zone === 'string' && zone !== '' && isKnownZone(zone) ? zone : DEFAULT_RULE.timeZone,
    }),
    [hour, zone],
  );
}

function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
