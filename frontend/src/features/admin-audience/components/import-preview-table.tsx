import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useNamespace } from '../../../lib/translations';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

/** The file's first rows under its column names, to check the mapping by. */
export function ImportPreviewTable({
  columnNames,
  rows,
}: {
  columnNames: readonly string[];
  rows: readonly (readonly string[])[];
}) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  return (
    <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
      <Table size="small" aria-label={t('import.previewLabel')}>
        <TableHead>
          <TableRow>
            {columnNames.map((column, index) => (
              <TableCell key={index} component="th" scope="col">
                {column}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, rowIndex) => (
            <TableRow key={rowIndex}>
              {columnNames.map((_, index) => (
                <TableCell key={index} sx={{ whiteSpace: 'nowrap' }}>
                  {row[index] ?? ''}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
