import { CSV_ENCODINGS, CSV_KINDS, type CsvEncoding, type CsvKind } from '@nemuri/shared/report/reportApi';
import { Button, Group, Select, Text } from '@mantine/core';
import { IconFileTypeCsv, IconFileTypePdf, IconPrinter, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { iconSize } from '../../lib/icons.ts';
import { csvUrl, pdfUrl, type ReportSelection } from './api/reportApi.ts';
import { usePdfDownload } from './api/usePdfDownload.ts';

/** Print, PDF and CSV of a report selection (the room's result page offers the downloads without printing). */
export function ReportDownloads({ selection, print = true }: { selection: ReportSelection; print?: boolean }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<CsvKind>('days');
  const [encoding, setEncoding] = useState<CsvEncoding>('utf8bom');
  const pdf = usePdfDownload();
  return (
    <Group gap="sm" align="flex-end" className="nemuri-no-print" data-testid="report-downloads">
      {print ? (
        <Button leftSection={<IconPrinter size={iconSize('xs')} />} variant="default" onClick={() => window.print()}>
          {t('report.download.print')}
        </Button>
      ) : null}
      <Button
        component="a"
        href={pdfUrl(selection)}
        download
        leftSection={<IconFileTypePdf size={iconSize('xs')} />}
        loading={pdf.state.phase === 'making' || pdf.state.phase === 'receiving'}
        onClick={(event) => {
          // The page fetches it, to show progress and offer cancel; the link stays for the keyboard and new tabs.
          event.preventDefault();
          pdf.start(pdfUrl(selection));
        }}
      >
        {t('report.download.pdf')}
      </Button>
      {pdf.state.phase === 'making' || pdf.state.phase === 'receiving' ? (
        <Group gap="xs" role="status" data-testid="pdf-progress">
          <Text size="sm">
            {pdf.state.phase === 'making'
              ? t('report.download.making', { seconds: pdf.state.seconds })
              : t('report.download.receiving', { kilobytes: pdf.state.kilobytes })}
          </Text>
          <Button size="xs" variant="subtle" color="red" leftSection={<IconX size={iconSize('xs')} />} onClick={pdf.cancel}>
            {t('report.download.cancel')}
          </Button>
        </Group>
      ) : null}
      {pdf.state.phase === 'failed' ? (
        <Text size="sm" c="red" role="alert">
          {t(pdf.state.status === 429 ? 'report.download.busy' : 'report.download.failed')}
        </Text>
      ) : null}
      <Select
        label={t('report.download.csvKind')}
        data={CSV_KINDS.map((value) => ({ value, label: t(`report.download.kinds.${value}`) }))}
        value={kind}
        onChange={(value) => value && setKind(value as CsvKind)}
        w={180}
        allowDeselect={false}
      />
      <Select
        label={t('report.download.encoding')}
        data={CSV_ENCODINGS.map((value) => ({ value, label: t(`report.download.encodings.${value}`) }))}
        value={encoding}
        onChange={(value) => value && setEncoding(value as CsvEncoding)}
        w={200}
        allowDeselect={false}
      />
      <Button component="a" href={csvUrl(selection, kind, encoding)} download variant="light" leftSection={<IconFileTypeCsv size={iconSize('xs')} />}>
        {t('report.download.csv')}
      </Button>
    </Group>
  );
}
