import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import { renderWithProviders, UNSTYLED } from '../../testing/render';
import { AdminDataGrid, type AdminDataGridProps } from './admin-data-grid';

interface Row {
  id: string;
  name: string;
}

const COLUMNS: GridColDef<Row>[] = [{ field: 'name', headerName: 'Name', flex: 1 }];

function grid(overrides: Partial<AdminDataGridProps<Row>>) {
  return (
    <AdminDataGrid<Row>
      label="People"
      rows={[]}
      columns={COLUMNS}
      total={0}
      loading={false}
      page={1}
      pageSize={25}
      sort="name"
      onPageChange={() => undefined}
      onSortChange={() => undefined}
      noRowsLabel="Nothing matches your search."
      {...overrides}
    />
  );
}

describe('AdminDataGrid while its page loads', () => {
  it('names its loading bar and keeps it out of the table, where only rows belong', async () => {
    await renderWithProviders(grid({ loading: true }), UNSTYLED);
    const table = await screen.findByRole('grid', { name: 'People' });
    const bar = screen.getByRole('progressbar', { name: 'Loading...' });
    expect(table.contains(bar)).toBe(false);
    expect(within(table).queryByRole('progressbar')).toBeNull();
  });

  it('says the first page is loading rather than that nothing matches', async () => {
    function LoadsOnClick() {
      const [loading, setLoading] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setLoading(false)}>
            Loaded
          </button>
          {grid({ loading })}
        </>
      );
    }
    const { user } = await renderWithProviders(<LoadsOnClick />, UNSTYLED);
    const table = await screen.findByRole('grid', { name: 'People' });
    expect(within(table).getByText('Loading...')).toBeInTheDocument();
    expect(within(table).queryByText('Nothing matches your search.')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Loaded' }));
    expect(
      await within(screen.getByRole('grid', { name: 'People' })).findByText(
        'Nothing matches your search.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('keeps the rows it has on screen while the next page loads', async () => {
    await renderWithProviders(
      grid({ loading: true, rows: [{ id: '1', name: 'Amira' }], total: 1 }),
      UNSTYLED,
    );
    const table = await screen.findByRole('grid', { name: 'People' });
    expect(within(table).getByText('Amira')).toBeInTheDocument();
    expect(within(table).queryByText('Loading...')).toBeNull();
  });
});

describe('AdminDataGrid with rows chosen by checkbox', () => {
  const ROWS: Row[] = [
    { id: 'a', name: 'Amira' },
    { id: 'b', name: 'Karim' },
    { id: 'c', name: 'Rim' },
  ];

  /** A grid whose choice lives in state, as a screen keeps it, with a button to its next page. */
  function Choosing({ max }: { max: number }) {
    const [ids, setIds] = useState<string[]>([]);
    const [rows, setRows] = useState(ROWS);
    return (
      <>
        <output aria-label="Chosen">{ids.join(',')}</output>
        <button type="button" onClick={() => setRows([{ id: 'd', name: 'Dora' }])}>
          Page 2
        </button>
        {grid({ rows, total: 30, selection: { ids, onChange: setIds, max } })}
      </>
    );
  }

  it('keeps what was chosen on a page once the next one shows, and adds to it', async () => {
    const { user } = await renderWithProviders(<Choosing max={10} />, UNSTYLED);
    const table = await screen.findByRole('grid', { name: 'People' });
    await user.click(
      within(table).getAllByRole('checkbox', { name: /select row/i })[0] as HTMLElement,
    );

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await within(table).findByText('Dora');
    expect(screen.getByLabelText('Chosen')).toHaveTextContent('a');
    await user.click(within(table).getByRole('checkbox', { name: /select all rows/i }));
    expect(screen.getByLabelText('Chosen')).toHaveTextContent('a,d');
  });

  it('offers no more rows once the most an action takes are chosen', async () => {
    const { user } = await renderWithProviders(<Choosing max={2} />, UNSTYLED);
    const table = await screen.findByRole('grid', { name: 'People' });
    const boxes = within(table).getAllByRole('checkbox', { name: /select row/i });

    await user.click(boxes[0] as HTMLElement);
    await user.click(boxes[1] as HTMLElement);
    expect(screen.getByLabelText('Chosen')).toHaveTextContent('a,b');
    expect(boxes[2]).toBeDisabled();
    await user.click(boxes[0] as HTMLElement);
    expect(boxes[2]).toBeEnabled();
  });
});
