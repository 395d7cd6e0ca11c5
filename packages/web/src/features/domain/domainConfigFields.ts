/**
 * Small pieces the domain configuration tabs share: the Japanese message of a field's problem,
 * and saving a section with a notification of the outcome.
 */
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { documents } from '../../lib/documents/documents.ts';
import { notify } from '../../lib/notify.ts';
import { errorKeyOf, saveDomainFields } from './api/domainConfigApi.ts';
import type { FieldProblems, Validation } from './domainConfigForm.ts';

/** The message shown under the field, or undefined when it has no problem. */
export function problemText(t: TFunction, problems: FieldProblems, field: string): string | undefined {
  const found = problems[field];
  if (found === undefined) return undefined;
  return t(`domainConfig.validation.${found.rule}`, { field: t(`domainConfig.fields.${field}`), ...found.params });
}

/** Validates a section and writes it to the domain; field problems stay next to the fields. */
export function useSectionSave(domainId: string, validate: () => Validation) {
  const { t } = useTranslation();
  const [problems, setProblems] = useState<FieldProblems>({});
  const [saving, setSaving] = useState(false);

  const clear = (field: string) => setProblems((current) => (current[field] === undefined ? current : { ...current, [field]: undefined }));

  const save = async () => {
    const checked = validate();
    if (!checked.ok) {
      setProblems(checked.problems);
      notify({ color: 'red', title: t('domainConfig.notices.saveFailed'), message: t('domainConfig.errors.invalidInput') });
      return;
    }
    setProblems({});
    setSaving(true);
    try {
      await saveDomainFields(documents, domainId, checked.fields);
      notify({ color: 'teal', message: t('domainConfig.notices.saved') });
    } catch (error) {
      notify({ color: 'red', title: t('domainConfig.notices.saveFailed'), message: t(errorKeyOf(error)) });
    } finally {
      setSaving(false);
    }
  };

  return { problems, saving, clear, save };
}

/**
 * A tab's form: its values, a setter that also clears the field's problem, the field's message, and
 * the section's save (validated by `validate` on the values as they are then).
 */
export function useSectionForm<V extends object>(domainId: string, initial: () => V, validate: (values: V) => Validation) {
  const { t } = useTranslation();
  const [values, setValues] = useState<V>(initial);
  const section = useSectionSave(domainId, () => validate(values));
  const set = <K extends keyof V>(field: K, value: V[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    section.clear(String(field));
  };
  const error = (field: keyof V) => problemText(t, section.problems, String(field));
  return { values, set, error, section };
}
