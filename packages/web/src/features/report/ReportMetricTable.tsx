import { cellText } from '@nemuri/shared/report/columns';
import { METRIC_KEYS, type RoomReport } from '@nemuri/shared/report/roomReport';
import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dayLabel } from './reportFormat.ts';

/** The per-day metrics and the period averages; the cells are the shared texts the PDF and CSV carry. */
export function ReportMetricTable({ report }: { report: RoomReport }) {
  const { t, i18n } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={1100}>
      <Table striped withTableBorder withColumnBorders fz="xs" verticalSpacing={2} horizontalSpacing={4} data-testid="report-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('report.table.day')}</Table.Th>
            {METRIC_KEYS.map((key) => (
              <Table.Th key={key} style={{ textAlign: 'center' }}>
                {t(`report.columns.${key}`)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.rows.map((row) => (
            <Table.Tr key={row.day} data-testid="report-row" data-day={row.day}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{dayLabel(row.day, i18n.language)}</Table.Td>
              {METRIC_KEYS.map((key) => (
                <Table.Td key={key} ta="right" data-key={key}>
                  {cellText(row, key) || '—'}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr data-testid="report-average" fw={700}>
            <Table.Th>{t('report.table.average')}</Table.Th>
            {METRIC_KEYS.map((key) => (
              <Table.Td key={key} ta="right" data-key={key} fw={700}>
                {cellText(report.averages, key) || '—'}
              </Table.Td>
            ))}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}
