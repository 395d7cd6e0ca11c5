/**
 * The character encoding of a CSV download, as every CSV of the product offers it: UTF-8 with a
 * byte order mark, or Shift_JIS (Windows-31J) for an older Excel in Japan. The choice is kept in
 * the browser, so a facility that needs Shift_JIS picks it once for every list.
 */
import { Select } from '@mantine/core';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CSV_ENCODINGS, type CsvEncoding } from '@nemuri/shared/report/reportApi';

const STORAGE_KEY = 'nemuri.csvEncoding';

function stored(): CsvEncoding {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return (CSV_ENCODINGS as readonly string[]).includes(value ?? '') ? (value as CsvEncoding) : 'utf8bom';
  } catch {
    // Storage blocked (private mode): the default.
    return 'utf8bom';
  }
}

export function useCsvEncoding(): [CsvEncoding, (encoding: CsvEncoding) => void] {
  const [encoding, setEncoding] = useState<CsvEncoding>(stored);
  const choose = useCallback((next: CsvEncoding) => {
    setEncoding(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Not kept: this page still uses it.
    }
  }, []);
  return [encoding, choose];
}

/** `encoding=sjis` for Windows-31J; nothing for the default (UTF-8 with BOM). */
export function withCsvEncoding(url: string, encoding: CsvEncoding): string {
  return encoding === 'utf8bom' ? url : `${url}${url.includes('?') ? '&' : '?'}encoding=${encoding}`;
}

export function CsvEncodingSelect({
  value,
  onChange,
  w = 180,
}: {
  value: CsvEncoding;
  onChange: (encoding: CsvEncoding) => void;
  w?: number | string | Record<string, number | string>;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('report.download.encoding')}
      data={CSV_ENCODINGS.map((encoding) => ({ value: encoding, label: t(`report.download.encodings.${encoding}`) }))}
      value={value}
      onChange={(next) => next && onChange(next as CsvEncoding)}
      allowDeselect={false}
      w={w}
      data-testid="csv-encoding"
    />
  );
}
