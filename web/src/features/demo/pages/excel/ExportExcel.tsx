import { ExcelDemo } from '../../components/ExcelDemo';

/** Excel export demo (all); exceljs is imported only when exporting. */
export default function ExcelPage() {
  return <ExcelDemo mode="all" />;
}
